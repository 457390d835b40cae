package store

import (
	"sync"

	"applicantportal/internal/portal"
)

// maxDecodedDefinitions bounds the definitionCache; when it is full it
// starts again empty.
const maxDecodedDefinitions = 256

// definitionCache keeps package services' decoded field definitions by
// their stored JSON text. Decoding them was a quarter of the CPU of the
// subject view; keyed by the stored text itself, an entry can never be
// stale: a change of a package's definitions, by this process or any
// other, is a new text and so a new entry, and the row is still read every
// time.
type definitionCache struct {
	mu      sync.Mutex
	decoded map[string][]portal.FieldDefinition
}

func newDefinitionCache() *definitionCache {
	return &definitionCache{decoded: map[string][]portal.FieldDefinition{}}
}

// decode is portal.DecodeDefinitions, remembered. Each caller gets its own
// copy of the slice; the definitions' options and rules are shared, and
// nothing changes them in place (servicedefs.Localize copies).
func (c *definitionCache) decode(stored string) ([]portal.FieldDefinition, error) {
	c.mu.Lock()
	fields, ok := c.decoded[stored]
	c.mu.Unlock()
	if !ok {
		var err error
		if fields, err = portal.DecodeDefinitions(stored); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if len(c.decoded) >= maxDecodedDefinitions {
			clear(c.decoded)
		}
		c.decoded[stored] = fields
		c.mu.Unlock()
	}
	return append([]portal.FieldDefinition(nil), fields...), nil
}
