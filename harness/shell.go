package harness

import "strings"

// ShellQuote quotes s for a POSIX shell when it needs it: a word of
// letters, digits and -_./=:,+@% is left as it is, anything else (the
// empty word too) is put in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellJoin quotes the words of a command for a POSIX shell (ShellQuote)
// and joins them with spaces.
func ShellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = ShellQuote(a)
	}
	return strings.Join(out, " ")
}
