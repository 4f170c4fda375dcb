package conform

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Renaming maps the names of a game to random words and back.
type Renaming struct {
	To   map[string]string // original name -> new name
	From map[string]string // new name -> original name
}

// Rename returns the game's cleaned rules with every constant, function,
// relation and variable name replaced by a random word (keywords and
// numbers are kept), as GDL text, with the mapping.
func Rename(g *gdl.Game, seed uint64) (string, *Renaming) {
	rng := rand.New(rand.NewPCG(seed, 0x72656e616d65))
	names := map[string]bool{}
	var collect func(t *gdl.Term)
	collect = func(t *gdl.Term) {
		names[t.Name.Name()] = true
		for _, a := range t.Args {
			collect(a)
		}
	}
	for _, r := range g.Rules {
		collect(r.Head)
		for _, l := range r.Body {
			for _, t := range []*gdl.Term{l.Atom, l.Left, l.Right} {
				if t != nil {
					collect(t)
				}
			}
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	rn := &Renaming{To: map[string]string{}, From: map[string]string{}}
	used := map[string]bool{}
	for n := range names {
		used[n] = true
	}
	for _, n := range sorted {
		if keep(n) {
			rn.To[n], rn.From[n] = n, n
			continue
		}
		var w string
		for {
			w = word(rng)
			if strings.HasPrefix(n, "?") {
				w = "?" + w
			}
			if !used[w] && !keep(w) {
				break
			}
		}
		used[w] = true
		rn.To[n], rn.From[w] = w, n
	}
	var b strings.Builder
	for _, r := range g.Rules {
		b.WriteString(gdl.MapNames(r.String(), rn.To))
		b.WriteByte('\n')
	}
	return b.String(), rn
}

func keep(n string) bool {
	if gdl.Intern(n).IsKeyword() {
		return true
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

func word(rng *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	n := 4 + rng.IntN(6)
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rng.IntN(len(letters))]
	}
	return string(b)
}

// Back maps a text of the renamed game to the original names.
func (rn *Renaming) Back(s string) string { return gdl.MapNames(s, rn.From) }

// Forth maps a text of the original game to the new names.
func (rn *Renaming) Forth(s string) string { return gdl.MapNames(s, rn.To) }

// Metamorphic builds the engine on the game and on a renamed copy, plays
// rollouts on the original chosen as in a trace, replays the same joint
// moves (renamed) on the copy, and compares everything after mapping the
// names back.
func Metamorphic(e engines.Engine, g *gdl.Game, seed uint64, rollouts int) (*Mismatch, error) {
	text, rn := Rename(g, seed)
	rg, err := gdl.Load(g.File+" (renamed)", []byte(text))
	if err != nil {
		return nil, fmt.Errorf("the renamed game does not load: %w", err)
	}
	orig, err := e.New(g)
	if err != nil {
		return nil, err
	}
	ren, err := e.New(rg)
	if err != nil {
		return &Mismatch{Method: "metamorphic", Diffs: []string{"the engine cannot build the renamed game: " + err.Error()}}, nil
	}
	back := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = rn.Back(s)
		}
		sort.Strings(out)
		return out
	}
	roles := len(orig.Roles())
	for r := 0; r < rollouts; r++ {
		rng := rand.New(rand.NewPCG(seed, uint64(r)))
		var history [][]string
		mis := func(step int, diffs ...string) *Mismatch {
			return &Mismatch{Method: "metamorphic", Rollout: r, Step: step, Diffs: diffs, History: history}
		}
		so, oerr := orig.Initial()
		sr, rerr := ren.Initial()
		d, lerr := errDiff("initial state", oerr, rerr)
		if lerr != nil {
			return nil, engineLimit(limitAt(lerr, r, 0, r > 0))
		}
		if d != "" {
			return mis(0, d), nil
		}
		if oerr != nil {
			return nil, nil
		}
		for step := 0; step < 10_000; step++ {
			if d := setDiff("state", orig.StateFacts(so), back(ren.StateFacts(sr))); len(d) > 0 {
				return mis(step, d...), nil
			}
			ot, oerr := orig.Terminal(so)
			rt, rerr := ren.Terminal(sr)
			d, lerr := errDiff("terminal", oerr, rerr)
			if lerr != nil {
				return nil, engineLimit(limitAt(lerr, r, step, r > 0 || step > 0))
			}
			if d != "" {
				return mis(step, d), nil
			}
			if oerr != nil {
				break
			}
			if ot != rt {
				return mis(step, fmt.Sprintf("terminal: original %v, renamed %v", ot, rt)), nil
			}
			if ot {
				og, oerr := orig.Goals(so)
				rgs, rerr := ren.Goals(sr)
				d, lerr := errDiff("goals", oerr, rerr)
				if lerr != nil {
					return nil, engineLimit(limitAt(lerr, r, step, r > 0 || step > 0))
				}
				if d != "" {
					return mis(step, d), nil
				}
				if fmt.Sprint(og) != fmt.Sprint(rgs) {
					return mis(step, fmt.Sprintf("goals: original %v, renamed %v", og, rgs)), nil
				}
				break
			}
			jo := make([]engines.Move, roles)
			jr := make([]engines.Move, roles)
			joint := make([]string, roles)
			failed := false
			for role := 0; role < roles; role++ {
				ol, oerr := orig.Legal(so, role)
				rl, rerr := ren.Legal(sr, role)
				d, lerr := errDiff(fmt.Sprintf("legal moves of role %d", role), oerr, rerr)
				if lerr != nil {
					return nil, engineLimit(limitAt(lerr, r, step, r > 0 || step > 0))
				}
				if d != "" {
					return mis(step, d), nil
				}
				if oerr != nil {
					failed = true
					break
				}
				om, rm := moveTexts(orig, ol), moveTexts(ren, rl)
				ot := keys(om)
				rback := map[string]engines.Move{}
				for t, mv := range rm {
					rback[rn.Back(t)] = mv
				}
				if d := setDiff(fmt.Sprintf("legal moves of role %d", role), ot, keys(rback)); len(d) > 0 {
					return mis(step, d...), nil
				}
				joint[role] = ot[rng.IntN(len(ot))]
				jo[role], jr[role] = om[joint[role]], rback[joint[role]]
			}
			if failed {
				break
			}
			history = append(history, joint)
			so, oerr = orig.Next(so, jo)
			sr, rerr = ren.Next(sr, jr)
			d, lerr = errDiff("next state", oerr, rerr)
			if lerr != nil {
				return nil, engineLimit(limitAt(lerr, r, step+1, true))
			}
			if d != "" {
				return mis(step+1, d), nil
			}
			if oerr != nil {
				break
			}
		}
	}
	return nil, nil
}

// engineLimit names the engine as the side that stopped: both machines of
// a metamorphic check are the engine's.
func engineLimit(le *LimitError) error {
	le.Side = "engine"
	return le
}
