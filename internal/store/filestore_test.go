package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// countRows counts the rows of the file tables, so a test can prove an
// upload that failed left nothing behind.
func countRows(t *testing.T, db *store.DB) (files, chunks int) {
	t.Helper()
	if err := db.SQL().QueryRow(`SELECT (SELECT COUNT(*) FROM files), (SELECT COUNT(*) FROM file_chunks)`).Scan(&files, &chunks); err != nil {
		t.Fatal(err)
	}
	return files, chunks
}

func readAll(t *testing.T, fs portal.FileStore, id int64) (*portal.File, []byte) {
	t.Helper()
	f, rc, err := fs.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%d): %v", id, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read file %d: %v", id, err)
	}
	return f, b
}

func TestFileStoreRoundTrip(t *testing.T) {
	const chunk = store.FileChunkSize
	sizes := []struct {
		name string
		size int
	}{
		{"Empty", 0}, {"OneByte", 1}, {"JustUnderAChunk", chunk - 1}, {"OneChunk", chunk},
		{"JustOverAChunk", chunk + 1}, {"SeveralChunksAndABit", 3*chunk + 17},
	}
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		fs := store.NewFileStore(db)
		for _, tt := range sizes {
			t.Run(tt.name, func(t *testing.T) {
				content := randomBytes(tt.size)
				put, err := fs.Put(context.Background(), portal.FileMeta{Name: " form.pdf ", ContentType: "application/pdf"},
					bytes.NewReader(content), portal.MaxUploadSize)
				if err != nil {
					t.Fatal(err)
				}
				if put.Size != int64(tt.size) || put.SHA256 != sha256Hex(content) || put.Name != "form.pdf" {
					t.Errorf("Put = %+v; want size %d, sha256 %s, name form.pdf", put, tt.size, sha256Hex(content))
				}
				got, body := readAll(t, fs, put.ID)
				if !bytes.Equal(body, content) {
					t.Errorf("read %d bytes back, not the %d put", len(body), len(content))
				}
				if *got != *put {
					t.Errorf("Get = %+v, want %+v", got, put)
				}
			})
		}
	})
}

// endlessReader gives zeros for ever and counts them.
type endlessReader struct{ n int64 }

func (r *endlessReader) Read(p []byte) (int, error) {
	clear(p)
	r.n += int64(len(p))
	return len(p), nil
}

// failingReader fails after giving some content.
type failingReader struct{ left int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, errors.New("connection reset")
	}
	n := min(len(p), r.left)
	r.left -= n
	return n, nil
}

func TestFileStoreLimit(t *testing.T) {
	const limit = 2*store.FileChunkSize + 100
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		fs := store.NewFileStore(db)
		ctx := context.Background()
		meta := portal.FileMeta{Name: "scan.png", ContentType: "image/png"}
		t.Run("ExactlyTheLimitStored", func(t *testing.T) {
			f, err := fs.Put(ctx, meta, bytes.NewReader(randomBytes(limit)), limit)
			if err != nil {
				t.Fatal(err)
			}
			if f.Size != limit {
				t.Errorf("size %d, want %d", f.Size, limit)
			}
			if err := fs.Delete(ctx, f.ID); err != nil {
				t.Fatal(err)
			}
		})
		over := []struct {
			name string
			r    io.Reader
		}{
			{"OneByteOverRefused", bytes.NewReader(randomBytes(limit + 1))},
			{"EndlessStreamRefused", &endlessReader{}},
		}
		for _, tt := range over {
			t.Run(tt.name, func(t *testing.T) {
				_, err := fs.Put(ctx, meta, tt.r, limit)
				if code := portal.ErrorCode(err); code != portal.ETOOLARGE {
					t.Fatalf("Put = %v (code %q), want ETOOLARGE", err, code)
				}
				if files, chunks := countRows(t, db); files != 0 || chunks != 0 {
					t.Errorf("%d files and %d chunks left behind, want none", files, chunks)
				}
				// It stops reading at the limit instead of draining the client.
				if e, ok := tt.r.(*endlessReader); ok && e.n > limit+store.FileChunkSize {
					t.Errorf("read %d bytes of an endless stream with a limit of %d", e.n, limit)
				}
			})
		}
		t.Run("ReadErrorStoresNothing", func(t *testing.T) {
			_, err := fs.Put(ctx, meta, &failingReader{left: store.FileChunkSize + 5}, limit)
			if err == nil || portal.ErrorCode(err) != portal.EINTERNAL {
				t.Fatalf("Put = %v, want an internal error", err)
			}
			if files, chunks := countRows(t, db); files != 0 || chunks != 0 {
				t.Errorf("%d files and %d chunks left behind, want none", files, chunks)
			}
		})
	})
}

func TestFileStoreDeleteAndIntegrity(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		fs := store.NewFileStore(db)
		ctx := context.Background()
		put := func(t *testing.T) *portal.File {
			t.Helper()
			f, err := fs.Put(ctx, portal.FileMeta{Name: "id.jpg", ContentType: "image/jpeg"}, bytes.NewReader(randomBytes(store.FileChunkSize+10)), portal.MaxUploadSize)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		t.Run("DeletedFileIsGone", func(t *testing.T) {
			f := put(t)
			if err := fs.Delete(ctx, f.ID); err != nil {
				t.Fatal(err)
			}
			if _, _, err := fs.Get(ctx, f.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("Get after Delete = %v, want ENOTFOUND", err)
			}
			if err := fs.Delete(ctx, f.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("second Delete = %v, want ENOTFOUND", err)
			}
			if files, chunks := countRows(t, db); files != 0 || chunks != 0 {
				t.Errorf("%d files and %d chunks left, want none", files, chunks)
			}
		})
		t.Run("UnknownFileNotFound", func(t *testing.T) {
			if _, _, err := fs.Get(ctx, 987654); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("Get = %v, want ENOTFOUND", err)
			}
		})
		t.Run("ChangedContentFailsTheRead", func(t *testing.T) {
			f := put(t)
			defer fs.Delete(ctx, f.ID)
			if _, err := db.SQL().Exec(`UPDATE file_chunks SET data = $1 WHERE file_id = $2 AND seq = 1`, randomBytes(10), f.ID); err != nil {
				t.Fatal(err)
			}
			_, rc, err := fs.Get(ctx, f.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			if _, err := io.ReadAll(rc); err == nil {
				t.Error("read a file whose content no longer matches its SHA-256 without an error")
			}
		})
		t.Run("UnfinishedUploadInvisible", func(t *testing.T) {
			var id int64
			if err := db.SQL().QueryRow(`INSERT INTO files (name, content_type, created_at) VALUES ('x', 'text/plain', 0) RETURNING id`).Scan(&id); err != nil {
				t.Fatal(err)
			}
			if _, _, err := fs.Get(ctx, id); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("Get of an unfinished upload = %v, want ENOTFOUND", err)
			}
			n, err := fs.DeleteAbandoned(ctx)
			if err != nil || n != 1 {
				t.Errorf("DeleteAbandoned = %d, %v; want 1 upload removed", n, err)
			}
		})
	})
}

// TestFileStoreSharedByInstances: a file one process stores, another
// process on the same database reads and deletes.
func TestFileStoreSharedByInstances(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		cfg := storetest.Config(t) // one data key, as instances share it
		a := store.NewFileStore(open(cfg))
		b := store.NewFileStore(open(cfg))
		content := randomBytes(3*store.FileChunkSize + 1)
		f, err := a.Put(context.Background(), portal.FileMeta{Name: "release.pdf", ContentType: "application/pdf"}, bytes.NewReader(content), portal.MaxUploadSize)
		if err != nil {
			t.Fatal(err)
		}
		if _, body := readAll(t, b, f.ID); !bytes.Equal(body, content) {
			t.Error("the other instance read different content")
		}
		if err := b.Delete(context.Background(), f.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.Get(context.Background(), f.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
			t.Errorf("Get on the first instance after the other deleted = %v, want ENOTFOUND", err)
		}
	})
}

// BenchmarkFileStorePut20MB stores the largest upload; B/op shows the
// memory a Put takes (the content passes in 256 KiB chunks).
func BenchmarkFileStorePut20MB(b *testing.B) {
	content := randomBytes(portal.MaxUploadSize)
	bench := func(b *testing.B, db *store.DB) {
		fs := store.NewFileStore(db)
		ctx := context.Background()
		b.SetBytes(int64(len(content)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := fs.Put(ctx, portal.FileMeta{Name: "big.pdf", ContentType: "application/pdf"}, bytes.NewReader(content), portal.MaxUploadSize)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			fs.Delete(ctx, f.ID)
			b.StartTimer()
		}
	}
	b.Run("SQLite", func(b *testing.B) { bench(b, storetest.OpenSQLite(b, storetest.Config(b))) })
	b.Run("PostgreSQL", func(b *testing.B) {
		if os.Getenv(storetest.EnvURL) == "" {
			b.Skip(storetest.EnvURL + " is not set")
		}
		bench(b, storetest.OpenPostgres(b, storetest.Config(b)))
	})
}

// TestFileStoreSealsChunks: what the database holds of a file is sealed,
// and a chunk opens only in the file and place it was written for.
func TestFileStoreSealsChunks(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		fs := store.NewFileStore(db)
		ctx := context.Background()
		// Recognisable plaintext over two chunks.
		content := bytes.Repeat([]byte("DRIVER LICENSE D1234567 "), (store.FileChunkSize+100)/24+1)
		put := func(t *testing.T) *portal.File {
			t.Helper()
			f, err := fs.Put(ctx, portal.FileMeta{Name: "Jane Doe license.png", ContentType: "image/png"}, bytes.NewReader(content), portal.MaxUploadSize)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		a, b := put(t), put(t)
		t.Run("RawChunksHoldNoPlaintext", func(t *testing.T) {
			rows, err := db.SQL().Query(`SELECT data FROM file_chunks WHERE file_id = $1`, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			n := 0
			for rows.Next() {
				var data []byte
				if err := rows.Scan(&data); err != nil {
					t.Fatal(err)
				}
				n++
				if bytes.Contains(data, []byte("DRIVER LICENSE")) {
					t.Errorf("chunk %d holds the plaintext", n)
				}
			}
			if n != 2 {
				t.Errorf("%d chunks, want 2", n)
			}
		})
		t.Run("TheNameIsSealedAndOpens", func(t *testing.T) {
			var raw string
			if err := db.SQL().QueryRow(`SELECT name FROM files WHERE id = $1`, a.ID).Scan(&raw); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(raw, "Jane") || raw == "" {
				t.Errorf("files.name = %q, want it sealed", raw)
			}
			got, rc, err := fs.Get(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			rc.Close()
			if got.Name != "Jane Doe license.png" {
				t.Errorf("name read back = %q", got.Name)
			}
		})
		t.Run("NameMovedToAnotherFileDoesNotOpen", func(t *testing.T) {
			c := put(t)
			if _, err := db.SQL().Exec(`UPDATE files SET name = (SELECT name FROM files WHERE id = $1) WHERE id = $2`, a.ID, c.ID); err != nil {
				t.Fatal(err)
			}
			if _, _, err := fs.Get(ctx, c.ID); err == nil {
				t.Error("a file with another file's sealed name opened")
			}
		})
		t.Run("ChunkMovedToAnotherFileDoesNotOpen", func(t *testing.T) {
			if _, err := db.SQL().Exec(`UPDATE file_chunks SET data = (SELECT data FROM file_chunks WHERE file_id = $1 AND seq = 0) WHERE file_id = $2 AND seq = 0`, a.ID, b.ID); err != nil {
				t.Fatal(err)
			}
			_, rc, err := fs.Get(ctx, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			if _, err := io.ReadAll(rc); err == nil {
				t.Error("read a file whose first chunk was copied from another file without an error")
			}
			if _, body := readAll(t, fs, a.ID); !bytes.Equal(body, content) {
				t.Error("the original file no longer reads back")
			}
		})
	})
}
