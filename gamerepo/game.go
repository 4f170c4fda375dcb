package gamerepo

// Game is one rulesheet ready to run, named by its game key.
type Game struct {
	Key     string   // REPO/key/hash, e.g. BASE/ticTacToe/JRFsaQ
	Repo    string   // BASE, DRESDEN, STANFORD, LOCAL or BUILTIN
	Name    string   // the key within its repository, e.g. ticTacToe
	Version int      // the repository's version (0 for LOCAL and BUILTIN)
	Title   string   // the METADATA's gameName, when it has one
	Roles   []string // the METADATA's roleNames, when known
	File    string   // a name for messages: the rulesheet's path, or builtin/NAME.kif
	Path    string   // the rulesheet on disk; "" for a built-in game
	Rules   []byte   // the rulesheet (as served for a repository game); do not modify
	SHA256  string   // hex sha256 of Rules
	Meta    Metadata // the METADATA, for a game from the cache
}
