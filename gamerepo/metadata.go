package gamerepo

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Metadata is the METADATA of one version of a game, as the repository
// served it (the fields gdlperf reads; Raw keeps all of them).
type Metadata struct {
	Rulesheet   string   // the rulesheet's file name, e.g. ticTacToe.kif
	Version     int      // the version number
	GameName    string   // optional display name
	Description string   // optional .txt file name
	RoleNames   []string // the roles, in the order of the role facts
	NumRoles    int
	Raw         []byte // the served JSON
}

type metadataJSON struct {
	Rulesheet   *string  `json:"rulesheet"`
	Version     *int     `json:"version"`
	GameName    string   `json:"gameName"`
	Description string   `json:"description"`
	RoleNames   []string `json:"roleNames"`
	NumRoles    int      `json:"numRoles"`
}

// ParseMetadata reads a served METADATA. The rulesheet must be named by a
// safe file name and the version must be in 0..MaxVersion.
func ParseMetadata(b []byte) (Metadata, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return Metadata{}, fmt.Errorf("METADATA: empty")
	}
	var j metadataJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return Metadata{}, fmt.Errorf("METADATA: malformed JSON: %w", err)
	}
	if j.Rulesheet == nil {
		return Metadata{}, fmt.Errorf("METADATA: no rulesheet field")
	}
	if err := checkFileName(*j.Rulesheet); err != nil {
		return Metadata{}, fmt.Errorf("METADATA: rulesheet: %w", err)
	}
	m := Metadata{Rulesheet: *j.Rulesheet, GameName: j.GameName, Description: j.Description, RoleNames: j.RoleNames, NumRoles: j.NumRoles, Raw: b}
	if j.Version != nil {
		m.Version = *j.Version
	}
	if m.Version < 0 || m.Version > MaxVersion {
		return Metadata{}, fmt.Errorf("METADATA: version %d out of range 0..%d", m.Version, MaxVersion)
	}
	return m, nil
}
