package gdl

import (
	"fmt"
	"strings"
	"testing"
)

func TestExplore2(t *testing.T) {
	var b strings.Builder
	b.WriteString("(<= (p ?a0) (q ?a0)")
	for i := 0; i < 2500; i++ {
		fmt.Fprintf(&b, " (not (distinct ?a%d ?a%d))", i, i+1)
	}
	b.WriteString(")")
	measure(t, "notdistinct2500", b.String(), DefaultLimits)
	b.Reset()
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "(p %d)", i)
	}
	b.WriteString("(<= (p ?x) (q ?x)")
	for i := 0; i < 3000; i++ {
		b.WriteString(" (not (p ?x))")
	}
	b.WriteString(")")
	measure(t, "strat3000", b.String(), DefaultLimits)
	b.Reset()
	for i := 0; i < 6000; i++ {
		fmt.Fprintf(&b, "(<= (r%d ?x) (r%d ?x))", i, (i+1)%6000)
	}
	measure(t, "chain6000", b.String(), DefaultLimits)
	b.Reset()
	b.WriteString("(p ")
	for i := 0; i < 10000; i++ {
		b.WriteString("(f ")
	}
	measure(t, "deep", b.String(), DefaultLimits)
	b.Reset()
	b.WriteString("(p ")
	for i := 0; i < 500; i++ {
		b.WriteString("(f ")
	}
	b.WriteString(strings.Repeat(")", 501))
	measure(t, "deep500", b.String(), DefaultLimits)
	b.Reset()
	b.WriteString("(<= (p ")
	for i := 0; i < 500; i++ {
		b.WriteString("(f ")
	}
	b.WriteString("?x" + strings.Repeat(")", 501))
	b.WriteString(" (not (distinct ?x ")
	for i := 0; i < 500; i++ {
		b.WriteString("(f ")
	}
	b.WriteString("?y" + strings.Repeat(")", 500))
	b.WriteString(")) (q ?y))")
	measure(t, "deepunify", b.String(), DefaultLimits)
}
