package gamerepo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client reads a repository from a server that speaks the ggp.org API, e.g.
// http://games.ggp.org/base. It retries, with exponential backoff,
// whatever may pass: connection errors, time-outs, HTTP 5xx, 408 and 429,
// empty and truncated bodies. It never retries a 404 or a response over a
// size limit. A Client is safe for concurrent use.
type Client struct {
	root       string
	hc         *http.Client
	retries    int
	backoff    time.Duration
	maxBackoff time.Duration
	userAgent  string
}

var _ Source = (*Client)(nil)

// ClientOption sets a knob of a Client.
type ClientOption func(*Client)

// WithHTTPClient makes the Client send its requests with hc. Its Timeout
// bounds each attempt.
func WithHTTPClient(hc *http.Client) ClientOption { return func(c *Client) { c.hc = hc } }

// WithTimeout bounds each attempt of a request, body included (default 30 s).
func WithTimeout(d time.Duration) ClientOption {
	return func(c *Client) {
		hc := *c.hc
		hc.Timeout = d
		c.hc = &hc
	}
}

// WithRetries sets how many times a failed request is tried again (default 4).
func WithRetries(n int) ClientOption { return func(c *Client) { c.retries = max(n, 0) } }

// WithBackoff sets the delay before the first retry and the cap of the
// delays, which double from one retry to the next (default 500 ms, 10 s).
func WithBackoff(first, cap time.Duration) ClientOption {
	return func(c *Client) { c.backoff, c.maxBackoff = first, max(cap, first) }
}

// NewClient returns a Client for the repository at root, e.g.
// http://games.ggp.org/base (requests go to root + "/games/...").
func NewClient(root string, opts ...ClientOption) (*Client, error) {
	u, err := url.Parse(root)
	if err != nil {
		return nil, fmt.Errorf("repository URL %q: %w", root, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("repository URL %q: want http://host/path or https://host/path", root)
	}
	c := &Client{
		root:       strings.TrimRight(root, "/"),
		hc:         &http.Client{Timeout: 30 * time.Second},
		retries:    4,
		backoff:    500 * time.Millisecond,
		maxBackoff: 10 * time.Second,
		userAgent:  "gdlperf-gamerepo",
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

func (c *Client) String() string { return c.root }

// Keys implements Source.
func (c *Client) Keys(ctx context.Context) ([]string, error) {
	u := c.root + "/games/"
	body, err := c.get(ctx, u, MaxListBytes)
	if err != nil {
		return nil, err
	}
	var keys []string
	if err := json.Unmarshal(body, &keys); err != nil {
		return nil, fmt.Errorf("GET %s: the key list is not a JSON array of strings: %w", u, err)
	}
	return keys, nil
}

// Bundle implements Source.
func (c *Client) Bundle(ctx context.Context) (map[string][]byte, error) {
	u := c.root + "/games/metadata"
	body, err := c.get(ctx, u, MaxListBytes)
	if err != nil {
		return nil, err
	}
	return parseBundle(u, body)
}

func parseBundle(where string, body []byte) (map[string][]byte, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("%s: the metadata bundle is not a JSON object: %w", where, err)
	}
	out := make(map[string][]byte, len(raw))
	for k, v := range raw {
		out[k] = v
	}
	return out, nil
}

// Metadata implements Source.
func (c *Client) Metadata(ctx context.Context, key string, version int) ([]byte, error) {
	u, err := c.gameURL(key, version, "")
	if err != nil {
		return nil, err
	}
	return c.get(ctx, u, MaxMetadataBytes)
}

// File implements Source.
func (c *Client) File(ctx context.Context, key string, version int, name string, limit int64) ([]byte, error) {
	if err := checkFileName(name); err != nil {
		return nil, err
	}
	u, err := c.gameURL(key, version, name)
	if err != nil {
		return nil, err
	}
	return c.get(ctx, u, limit)
}

func (c *Client) gameURL(key string, version int, name string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	u := c.root + "/games/" + url.PathEscape(key) + "/"
	if version != Latest {
		u += "v" + strconv.Itoa(version) + "/"
	}
	return u + url.PathEscape(name), nil
}

// HTTPError is a request that failed for good.
type HTTPError struct {
	URL      string
	Status   int   // the last HTTP status, 0 for a transport error
	Err      error // the transport or body error, if any
	Attempts int
}

func (e *HTTPError) Error() string {
	var what string
	switch {
	case e.Status == http.StatusNotFound:
		what = "404 not found"
	case e.Status != 0 && e.Err == nil:
		what = fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))
	default:
		what = e.Err.Error()
	}
	if e.Attempts > 1 {
		what += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return "GET " + e.URL + ": " + what
}

func (e *HTTPError) Unwrap() error { return e.Err }

// Is makes a 404 match ErrNotFound.
func (e *HTTPError) Is(target error) bool {
	return target == ErrNotFound && e.Status == http.StatusNotFound
}

var (
	errEmpty  = errors.New("empty response")
	errTooBig = errors.New("response over the size limit")
	errStatus = errors.New("bad status") // the status says it all
)

// get fetches u, retrying what may pass.
func (c *Client) get(ctx context.Context, u string, limit int64) ([]byte, error) {
	delay := c.backoff
	for attempt := 1; ; attempt++ {
		body, status, retry, err := c.once(ctx, u, limit)
		if err == nil {
			return body, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !retry || attempt > c.retries {
			if status != 0 && errors.Is(err, errStatus) {
				err = nil
			}
			return nil, &HTTPError{URL: u, Status: status, Err: err, Attempts: attempt}
		}
		// Full jitter keeps many clients from retrying in step.
		d := delay/2 + rand.N(delay/2+1)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, c.maxBackoff)
	}
}

// once makes one attempt. retry says whether another attempt may help.
func (c *Client) once(ctx context.Context, u string, limit int64) (body []byte, status int, retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, false, err
	}
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, 0, true, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode == http.StatusTooManyRequests:
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, resp.StatusCode, true, errStatus
	default:
		return nil, resp.StatusCode, false, errStatus
	}
	if resp.ContentLength > limit {
		return nil, resp.StatusCode, false, fmt.Errorf("%w of %d bytes (Content-Length %d)", errTooBig, limit, resp.ContentLength)
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, true, fmt.Errorf("reading the body: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, resp.StatusCode, false, fmt.Errorf("%w of %d bytes", errTooBig, limit)
	}
	if len(body) == 0 {
		return nil, 0, true, errEmpty
	}
	return body, resp.StatusCode, false, nil
}
