package rt

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Reply is one line of the -serve protocol's answers, a JSON object.
//
// The requests are lines of a letter and integers:
//
//	I            the initial state: h (a new state handle) or err
//	Q h          state h: term (or err), and legal: every role's legal
//	             move ids, with legalErr[i] the error of role i, if any
//	G h          the goals of state h, or err
//	N h m1 .. mk the state after the joint move: h, or err
//	F h          the facts of state h, printed and sorted: texts
//	M id ..      the texts of terms (moves): texts
//	R            the roles' names: texts
//	D h ..       forget states
//
// A handle is never reused; forgotten handles are answered with an error.
type Reply struct {
	H        int           `json:"h,omitempty"`
	Term     bool          `json:"term,omitempty"`
	Err      *ReplyError   `json:"err,omitempty"`
	Legal    [][]int32     `json:"legal,omitempty"`
	LegalErr []*ReplyError `json:"legalErr,omitempty"`
	Goals    []int         `json:"goals,omitempty"`
	Texts    []string      `json:"texts,omitempty"`
}

// ReplyError is a game error in a reply.
type ReplyError struct {
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
}

func replyErr(err error) *ReplyError {
	if err == nil {
		return nil
	}
	if ge, ok := asGameError(err); ok {
		return &ReplyError{Kind: string(ge.Kind), Msg: ge.Msg}
	}
	return &ReplyError{Kind: "", Msg: err.Error()}
}

// Serve answers requests from r on w until r ends.
func (e *Engine) Serve(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	states := map[int]*State{}
	nextH := 1
	add := func(s *State) int {
		h := nextH
		nextH++
		states[h] = s
		return h
	}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		nums := make([]int64, 0, len(f)-1)
		bad := false
		for _, x := range f[1:] {
			v, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				bad = true
			}
			nums = append(nums, v)
		}
		var rep Reply
		state := func() *State {
			if len(nums) == 0 {
				rep.Err = &ReplyError{Kind: string(protocol.BadMove), Msg: "no state handle"}
				return nil
			}
			s := states[int(nums[0])]
			if s == nil {
				rep.Err = &ReplyError{Kind: string(protocol.BadMove), Msg: fmt.Sprintf("unknown state handle %d", nums[0])}
			}
			return s
		}
		switch {
		case bad:
			rep.Err = &ReplyError{Msg: "bad request " + strconv.Quote(sc.Text())}
		case f[0] == "I":
			s, err := e.Initial()
			if err != nil {
				rep.Err = replyErr(err)
			} else {
				rep.H = add(s)
			}
		case f[0] == "Q":
			if s := state(); s != nil {
				term, err := e.Terminal(s)
				rep.Term, rep.Err = term, replyErr(err)
				rep.Legal = make([][]int32, len(e.Roles))
				rep.LegalErr = make([]*ReplyError, len(e.Roles))
				for i := range e.Roles {
					moves, err := e.Legal(s, i)
					rep.Legal[i] = append([]int32{}, moves...)
					rep.LegalErr[i] = replyErr(err)
				}
			}
		case f[0] == "G":
			if s := state(); s != nil {
				goals, err := e.Goals(s)
				rep.Goals, rep.Err = goals, replyErr(err)
			}
		case f[0] == "N":
			if s := state(); s != nil {
				joint := make([]int32, len(nums)-1)
				for i, v := range nums[1:] {
					joint[i] = int32(v)
					if v != int64(int32(v)) {
						joint[i] = -1
					}
				}
				n, err := e.Next(s, joint)
				if err != nil {
					rep.Err = replyErr(err)
				} else {
					rep.H = add(n)
				}
			}
		case f[0] == "F":
			if s := state(); s != nil {
				rep.Texts = e.StateFacts(s)
			}
		case f[0] == "M":
			rep.Texts = make([]string, len(nums))
			for i, v := range nums {
				if v < 0 || v >= int64(e.S.Size()) {
					rep.Texts[i] = fmt.Sprintf("<bad move %d>", v)
				} else {
					rep.Texts[i] = e.S.Text(int32(v))
				}
			}
		case f[0] == "R":
			rep.Texts = e.RoleNames()
		case f[0] == "D":
			for _, v := range nums {
				delete(states, int(v))
			}
		default:
			rep.Err = &ReplyError{Msg: "bad request " + strconv.Quote(sc.Text())}
		}
		if err := enc.Encode(&rep); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}
