package gamerepo

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mirrorDir is the shared mirror of the ggp.org repositories, relative to
// this package's folder.
const mirrorDir = "../../shared/gamerepo-mirror"

func needMirror(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(mirrorDir, "index.tsv")); err != nil {
		t.Skipf("game mirror not available: %v", err)
	}
}

// indexRow is one row of the mirror's index.tsv.
type indexRow struct {
	repo, key, version, path, sha256, sha256Served, id string
}

func readIndex(t *testing.T) []indexRow {
	t.Helper()
	f, err := os.Open(filepath.Join(mirrorDir, "index.tsv"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	require.True(t, sc.Scan(), "index.tsv has no header")
	col := map[string]int{}
	for i, name := range strings.Split(sc.Text(), "\t") {
		col[name] = i
	}
	for _, name := range []string{"repo", "key", "version", "path", "sha256", "sha256_served", "gdlperf_id"} {
		require.Contains(t, col, name, "index.tsv column")
	}
	var rows []indexRow
	for sc.Scan() {
		if sc.Text() == "" {
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		require.Greater(t, len(f), col["gdlperf_id"], "short row %q", sc.Text())
		rows = append(rows, indexRow{
			repo: f[col["repo"]], key: f[col["key"]], version: f[col["version"]],
			path: f[col["path"]], sha256: f[col["sha256"]],
			sha256Served: f[col["sha256_served"]], id: f[col["gdlperf_id"]],
		})
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, rows)
	return rows
}

func TestGameKeyVectors(t *testing.T) {
	needMirror(t)
	tests := []struct {
		name, repo, key, file, want string
	}{
		{"base ticTacToe", "base", "ticTacToe", "base/ticTacToe/ticTacToe.kif", "BASE/ticTacToe/JRFsaQ"},
		{"base connectFour", "base", "connectFour", "base/connectFour/connectFour.kif", "BASE/connectFour/WAIKTw"},
		{"base hex", "base", "hex", "base/hex/hex.kif", "BASE/hex/T1MK8g"},
		{"base reversi", "base", "reversi", "base/reversi/reversi.kif", "BASE/reversi/d8UMeA"},
		{"base breakthrough", "base", "breakthrough", "base/breakthrough/breakthrough.kif", "BASE/breakthrough/TGxk-g"},
		{"base speedChess", "base", "speedChess", "base/speedChess/speedChess.kif", "BASE/speedChess/bPnisA"},
		{"dresden tictactoe", "dresden", "tictactoe", "dresden/tictactoe/rulesheet.kif", "DRESDEN/tictactoe/BTTzPw"},
		{"dresden connectfour", "dresden", "connectfour", "dresden/connectfour/rulesheet.kif", "DRESDEN/connectfour/5tc-Mg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(mirrorDir, tt.file))
			require.NoError(t, err)
			assert.Equal(t, tt.want, GameKey(tt.repo, tt.key, raw))
			assert.Equal(t, tt.want, GameKey(tt.repo, tt.key, ServedForm(raw)), "served form")
		})
	}
}

func TestGameKeyIndex(t *testing.T) {
	needMirror(t)
	for _, row := range readIndex(t) {
		t.Run(row.repo+"/"+row.key+"/v"+row.version, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(mirrorDir, filepath.FromSlash(row.path)))
			require.NoError(t, err)
			want := strings.ToUpper(row.repo) + "/" + row.key + "/" + row.id
			assert.Equal(t, want, GameKey(row.repo, row.key, raw))
			assert.Equal(t, row.id, RulesHash(ServedForm(raw)))
		})
	}
}

func TestServedFormIndex(t *testing.T) {
	needMirror(t)
	for _, row := range readIndex(t) {
		t.Run(row.repo+"/"+row.key+"/v"+row.version, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(mirrorDir, filepath.FromSlash(row.path)))
			require.NoError(t, err)
			sum := sha256.Sum256(raw)
			assert.Equal(t, row.sha256, hex.EncodeToString(sum[:]), "sha256 of the stored file")
			served := ServedForm(raw)
			sum = sha256.Sum256(served)
			assert.Equal(t, row.sha256Served, hex.EncodeToString(sum[:]), "sha256 of the served form")
			assert.Equal(t, served, ServedForm(served), "ServedForm is idempotent")
		})
	}
}

func TestServedForm(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"final newline added", "(role x)", "(role x)\n"},
		{"already served", "(role x)\n", "(role x)\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"cr", "a\rb", "a\nb\n"},
		{"cr cr lf", "a\r\r\nb", "a\n\nb\n"},
		{"lf cr", "a\n\rb\n", "a\n\nb\n"},
		{"only newline", "\n", "\n"},
		{"only cr", "\r", "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ServedForm([]byte(tt.in))
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, tt.want, string(ServedForm(got)), "idempotent")
		})
	}
}

func TestPreprocessRulesheet(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "(   )"},
		{"one line", "(role x)", "( (role x)  )"},
		{"comment cut", "(role x) ; a comment\n", "( (role x)   )"},
		{"comment line kept as empty line", "; c\n(role x)\n", "(  (role x)  )"},
		{"trailing empty lines dropped", "a\n\n\n", "( a  )"},
		{"inner empty lines kept", "a\n\nb\n", "( a  b  )"},
		{"crlf is two breaks", "a\r\nb", "( a  b  )"},
		{"only line ends", "\n\n", "(  )"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, preprocessRulesheet(tt.in))
		})
	}
}

func TestJavaHashCode(t *testing.T) {
	// Values of Java's "...".hashCode().
	assert.Equal(t, int32(0), javaHashCode(""))
	assert.Equal(t, int32(97), javaHashCode("a"))
	assert.Equal(t, int32(99162322), javaHashCode("hello"))
	// Overflow wraps as Java's int does.
	assert.Equal(t, int32(-1910022912), javaHashCode("zzzzzzzz"))
	// U+1F600 is two UTF-16 code units, 0xD83D 0xDE00.
	assert.Equal(t, int32(1772899), javaHashCode("\U0001F600"))
	assert.Equal(t, int32(-647310679), javaHashCode("hello world, hello gdl"))
}

func TestGameKeyFormat(t *testing.T) {
	k := GameKey("local", "my game", []byte("(role x)\r\n"))
	assert.Equal(t, k, GameKey("LOCAL", "my game", []byte("(role x)\n")))
	parts := strings.Split(k, "/")
	require.Len(t, parts, 3)
	assert.Equal(t, "LOCAL", parts[0])
	assert.Len(t, parts[2], 6)
}
