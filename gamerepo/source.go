package gamerepo

import (
	"context"
	"errors"
)

// Latest asks a Source for the latest version of a game.
const Latest = -1

// ErrNotFound is wrapped by a Source's errors for a key, version or file
// the repository does not have (HTTP 404).
var ErrNotFound = errors.New("not found")

// A Source serves one repository in the URL layout of the ggp.org API
// (GAMEREPO-API.md): the key list, the metadata bundle, the METADATA of a
// version and the files a METADATA names, with a versioned file falling
// back to the newest lower version that has it. Text files come in the
// served form (LF line ends, a final LF). Client speaks HTTP; Mirror reads
// a folder.
type Source interface {
	// Keys returns the repository's game keys (GET /games/), as served:
	// unsorted, possibly with duplicates or hostile names.
	Keys(ctx context.Context) ([]string, error)
	// Bundle returns the METADATA of every game's latest version, by key
	// (GET /games/metadata). A Source without one returns ErrNotFound.
	Bundle(ctx context.Context) (map[string][]byte, error)
	// Metadata returns the METADATA of a version, or of the latest version
	// for Latest (GET /games/<key>/v<N>/ or /games/<key>/).
	Metadata(ctx context.Context, key string, version int) ([]byte, error)
	// File returns a file of a version (GET /games/<key>/v<N>/<name>),
	// at most limit bytes.
	File(ctx context.Context, key string, version int, name string, limit int64) ([]byte, error)
	// String names the source in messages and in the cache index.
	String() string
}
