package seal

import (
	"sync"
	"testing"
	"time"
)

// TestSealerFollowsTheKeyFile: a Sealer loaded from data.key seals with the
// key a rotation put first once it looks at the file again, at most once
// every FileCheckInterval.
func TestSealerFollowsTheKeyFile(t *testing.T) {
	dir := t.TempDir()
	s, err := Load("", dir)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := time.Now()
	s.file.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s.file.checked.Store(now.UnixNano())
	old := s.Fingerprint()
	id, err := AddKeyFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if KeyID(s.Prefix()) != old {
		t.Fatalf("sealing with %s before the interval passed; want the old key %s still", KeyID(s.Prefix()), old)
	}
	mu.Lock()
	now = now.Add(FileCheckInterval)
	mu.Unlock()
	v, err := s.SealFor([]byte("x"), "p")
	if err != nil {
		t.Fatal(err)
	}
	if KeyID(v) != id || s.Fingerprint() != id || len(s.Fingerprints()) != 2 {
		t.Fatalf("sealed with %s, ring %v; want the new key %s first", KeyID(v), s.Fingerprints(), id)
	}
}
