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
//
// Games are selected with Select: builtin, builtin:NAME, a repository
// (base, dresden, stanford), a key BASE/ticTacToe[/JRFsaQ], globs such as
// BASE/tic* or BASE/*/JRF*, or a .kif file or folder (repo LOCAL).
// Repository games come from the disk cache only (Cache.Sync fills it from a
// Client for the ggp.org API or from a Mirror folder in the same layout);
// built-in games need neither network nor cache. A cached version is
// immutable, written atomically with the sha256 of its text last, and
// checked on every read.
package gamerepo
