package results

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowsDecoder hands already parsed records to gocsv.
type rowsDecoder [][]string

func (d rowsDecoder) GetCSVRows() ([][]string, error) { return d, nil }

// decodeGocsv is the slow, obviously correct twin of decodeRecords.
func decodeGocsv(records [][]string) ([]Row, error) {
	var rows []Row
	err := gocsv.UnmarshalDecoder(rowsDecoder(records), &rows)
	return rows, err
}

func TestSettersCoverRow(t *testing.T) {
	rt := reflect.TypeFor[Row]()
	var tags []string
	for i := range rt.NumField() {
		tags = append(tags, rt.Field(i).Tag.Get("csv"))
	}
	assert.Equal(t, tags, Header())
	for _, tag := range tags {
		assert.Contains(t, setters, tag, "no setter for column %s", tag)
	}
	assert.Len(t, setters, len(tags), "a setter for a column Row does not have")
}

// randomRow fills every field with random, often hostile, values.
func randomRow(rng *rand.Rand) Row {
	pieces := []string{"", "a", ",", "\"", "\n", "\r", " ", ";", "é", "x y", "0", "-1", "\t", "\"\"", "=1+2"}
	s := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		out := b.String()
		for strings.Contains(out, "\r\n") {
			out = strings.ReplaceAll(out, "\r\n", "\n") // CR LF reads back as LF
		}
		return out
	}
	i64 := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return math.MaxInt64 - rng.Int64N(3)
		case 2:
			return -rng.Int64()
		}
		return rng.Int64N(1 << 40)
	}
	r := Row{}
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(s())
		case reflect.Int, reflect.Int64:
			f.SetInt(i64())
		case reflect.Uint64:
			f.SetUint(rng.Uint64())
		case reflect.Bool:
			f.SetBool(rng.IntN(2) == 0)
		default:
			panic(fmt.Sprintf("field %s: add a case for %s", v.Type().Field(i).Name, f.Kind()))
		}
	}
	return r
}

func TestDecodeMatchesGocsv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]Row, 2000)
	for i := range rows {
		rows[i] = randomRow(rng)
	}
	text := string(headerLine) + encoded(t, rows...)
	p, err := parseCSV("random.csv", []byte(text))
	require.NoError(t, err)
	require.Zero(t, p.torn)

	fast, err := decodeRecords("random.csv", p.records, p.lines)
	require.NoError(t, err)
	slow, err := decodeGocsv(p.records)
	require.NoError(t, err)
	assert.Equal(t, slow, fast)
	assert.Equal(t, rows, fast, "round trip")

	// Foreign column orders and unknown columns too.
	reordered := [][]string{{"status", "junk", "seed", "run_key", "repetition"}, {"ok", "?", "18446744073709551615", "k", ""}, {"", "", "", "", "7"}}
	fast, err = decodeRecords("x.csv", reordered, []int{1, 2, 3})
	require.NoError(t, err)
	slow, err = decodeGocsv(reordered)
	require.NoError(t, err)
	assert.Equal(t, slow, fast)
}

func TestDecodeRejectsBadNumbers(t *testing.T) {
	tests := []struct {
		name, col, val, want string
	}{
		{name: "words", col: "repetition", val: "two", want: `"two" is not an integer`},
		{name: "negative seed", col: "seed", val: "-1", want: "not an unsigned integer"},
		{name: "overflow", col: "state_changes", val: "99999999999999999999", want: "not an integer"},
		{name: "fraction", col: "wall_ms", val: "1.5", want: "not an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeRecords("f.csv", [][]string{{"run_key", tt.col}, {"k", tt.val}}, []int{1, 5})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "f.csv:5: column "+tt.col)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
