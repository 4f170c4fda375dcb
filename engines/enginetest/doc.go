// Package enginetest is the test kit of the engines: Suite runs the
// comparisons of package conform (traces, exhaustive, metamorphic, the
// engine's own rollout loop) against the reference prover on the built-in
// games, a sample of the ggp.org mirror and GGP-Base's test games;
// BrokenEngine and LimitedEngine are engines wrong or limited on purpose,
// for testing the checks; MirroredGames and SharedDir find ../shared. It
// imports testing, so only tests import it; the binary uses conform.
package enginetest
