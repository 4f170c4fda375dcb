package protocol

import "fmt"

// ErrorKind classifies game errors. Its texts are the first word of an
// errorMessage and of a trace's error line, and the kind of an error in the
// compiled program's -serve replies.
type ErrorKind string

// The ways a valid-looking game can fail while it is played.
const (
	NoLegalMove    ErrorKind = "no-legal-move"
	GoalCount      ErrorKind = "goal-count"
	GoalValue      ErrorKind = "goal-value"
	NonGround      ErrorKind = "non-ground"
	BadMove        ErrorKind = "bad-move"
	ResourceLimit  ErrorKind = "resource-limit"
	UnsupportedErr ErrorKind = "unsupported"
)

// ErrorKinds lists every kind, in the order above.
var ErrorKinds = []ErrorKind{NoLegalMove, GoalCount, GoalValue, NonGround, BadMove, ResourceLimit, UnsupportedErr}

// GameError is a failure of the game's rules found while playing it, with
// the game's own terms in the message.
type GameError struct {
	Kind ErrorKind
	Msg  string
}

func (e *GameError) Error() string { return string(e.Kind) + ": " + e.Msg }

// Errorf returns a *GameError.
func Errorf(kind ErrorKind, format string, args ...any) *GameError {
	return &GameError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
