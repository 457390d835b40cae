package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
)

// MigrationsDigest is a hash of the names and contents of the embedded
// migrations of a dialect ("sqlite" or "postgres"): two binaries with the
// same digest migrate a database to the same schema. The tests key their
// pre-migrated template database by it (storetest), so a changed or added
// migration makes them build a new one.
func MigrationsDigest(dialect string) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations, "migrations/"+dialect, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations, path)
		if err != nil {
			return err
		}
		// The length keeps one file's end from passing for the next's name.
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("store: migrations digest: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
