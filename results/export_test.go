package results

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// hostileRows have names, versions, machines and messages from an engine
// or a server that tries to take over a terminal or a rendered page.
func hostileRows() []Row {
	ok := sampleRow(0)
	ok.Engine = "evil\x1b[2J\u202eengine"
	ok.EngineVersion = "1.0\r\n<script>alert(1)</script>"
	ok.CPUModel = "cpu\x1b]0;title\x07 \u2066x"
	ok.Host = "host\xff"
	failed := sampleRow(3)
	failed.GameKey = "BASE/a|b`c\u202e/h"
	failed.ErrorMessage = "line 1\nline 2 | [link](http://x) &#x202e; \x1b[31mred\u0085 \xfe"
	return []Row{ok, failed}
}

func TestExportMarkdownEscapes(t *testing.T) {
	var b strings.Builder
	require.NoError(t, Export(&b, "markdown", hostileRows()))
	out := b.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 4, "a header, a rule and one line per row:\n%s", out)
	for _, l := range lines {
		// Every line has the 11 bars of its 10 cells; escaped bars do not count.
		assert.Equal(t, 11, strings.Count(l, "|")-strings.Count(l, `\|`), "%q", l)
	}
	assert.True(t, utf8.ValidString(out))
	for _, bad := range []string{"\x1b", "\r", "\u202e", "\u2066", "\u0085", "<script>", "&#x202e;"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, out, `| evil\x1b\[2J\u202eengine | 1.0  &lt;script&gt;alert(1)&lt;/script&gt; |`)
	assert.Contains(t, out, `| BASE/a\|b\`+"`"+`c\u202e/h |`)
	assert.Contains(t, out, `line 1 line 2 \| \[link\](http://x) &amp;\#x202e; \x1b\[31mred\u0085 \xfe |`)
}

func TestExportBenchEscapes(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, ExportBench(&buf, hostileRows()))
	out := buf.String()
	assert.True(t, utf8.ValidString(out))
	for _, bad := range []string{"\x1b", "\r", "\u202e", "\u2066", "\x07"} {
		assert.NotContains(t, out, bad)
	}
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "export.txt")
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			n++
			assert.Equal(t, "Game/game=BASE:ticTacToe:JRFsaQ/engine=evil_[2J_engine/version=1.0__<script>alert(1)<:script>-1", rec.Name.String())
			assert.Equal(t, "cpu ]0;title   x", string(rec.GetConfig("cpu")))
			assert.Equal(t, "host", string(rec.GetConfig("host")), "invalid UTF-8 is a space, trimmed")
		}
	}
	require.NoError(t, r.Err())
	assert.Equal(t, 1, n, "the failed row is not a benchmark result")
}

func TestExportJSONAndCSVKeepText(t *testing.T) {
	rows := hostileRows()
	var js, cs strings.Builder
	require.NoError(t, Export(&js, "json", rows))
	var objs []map[string]string
	require.NoError(t, json.Unmarshal([]byte(js.String()), &objs))
	require.Len(t, objs, 2)
	assert.Equal(t, "BASE/a|b`c\u202e/h", objs[0]["game_key"], "json is data: the text as it is")
	require.NoError(t, Export(&cs, "csv", rows))
	assert.Contains(t, cs.String(), "\"line 1\nline 2 |", "csv quotes a message with a line break")
}
