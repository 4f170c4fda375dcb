// Package gamerepo provides the games gdlperf benchmarks and names them.
//
// A game is named by its game key REPO/key/hash (GameKey), the id gdl-perf
// recorded: hash is Java's String.hashCode() of GGP-Base's preprocessed
// rulesheet (Game.preprocessRulesheet: every line cut at its first ';' and
// followed by one space, wrapped in "( " and " )"), taken over the text as
// games.ggp.org served it (ServedForm), as 4 big-endian bytes in URL-safe
// base64 without padding. A changed rulesheet is a new key, so results of
// two versions of a game never mix.
//
// The built-in games (Builtins) are written for gdlperf and embedded in the
// binary; their repository name is BUILTIN.
package gamerepo
