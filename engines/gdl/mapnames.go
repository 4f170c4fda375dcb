package gdl

import "strings"

// MapNames replaces every name of a canonically printed GDL text (a state
// fact, a move, a rule) that m maps: the renaming of the metamorphic check
// and of the rename transform, forth and back. Parentheses and the single
// spaces between tokens are kept as they are.
func MapNames(s string, m map[string]string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == '(' || c == ')' || c == ' ' {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != '(' && s[j] != ')' && s[j] != ' ' {
			j++
		}
		tok := s[i:j]
		if r, ok := m[tok]; ok {
			tok = r
		}
		b.WriteString(tok)
		i = j
	}
	return b.String()
}
