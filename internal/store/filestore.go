package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
)

// FileChunkSize is the most content one row of file_chunks holds: small
// enough that a 20 MB upload never sits whole in memory or in one value,
// large enough that it takes only 80 rows.
const FileChunkSize = 256 << 10

// AbandonedUploadAge is how old an unfinished upload must be before
// DeleteAbandoned removes it: far longer than any upload takes.
const AbandonedUploadAge = 24 * time.Hour

// FileStore keeps files in the database (portal.FileStore), on SQLite and
// PostgreSQL alike. Each chunk is sealed with the data key, bound to its
// file and place in it (chunkPlace): applicants' uploads are licences,
// diplomas and court records, personal data like the SSN.
type FileStore struct {
	db *DB
}

var _ portal.FileStore = (*FileStore)(nil)

// NewFileStore returns the file store of db.
func NewFileStore(db *DB) *FileStore { return &FileStore{db: db} }

// Put streams r into chunks. Each chunk is written in a statement of its
// own rather than in one transaction: on SQLite a transaction holds the
// database's only write lock, and a slow phone would hold it for the whole
// upload. Until the last chunk is in, the file is incomplete (Get does not
// see it); a failed or too large upload deletes what it wrote. Inside
// Atomically (the demo seed adding form templates) it writes in that
// transaction instead: the pool would wait for the write lock it holds.
func (f *FileStore) Put(ctx context.Context, meta portal.FileMeta, r io.Reader, limit int64) (*portal.File, error) {
	file := &portal.File{SubjectID: meta.SubjectID, Name: strings.TrimSpace(meta.Name),
		ContentType: strings.TrimSpace(meta.ContentType), CreatedAt: fromMS(ms(f.db.now()))}
	if file.Name == "" || file.ContentType == "" || limit <= 0 {
		return nil, fmt.Errorf("store: put file: a name, a content type and a positive limit are required (got %q, %q, %d)", file.Name, file.ContentType, limit)
	}
	var subject sql.NullInt64
	if meta.SubjectID != 0 {
		subject = sql.NullInt64{Int64: meta.SubjectID, Valid: true}
	}
	// The name is sealed to the row, whose id is known only once it
	// exists: it is written with the rest when the upload completes.
	err := f.db.db.QueryRowContext(ctx, `INSERT INTO files (subject_id, name, content_type, created_at) VALUES ($1, '', $2, $3) RETURNING id`,
		subject, file.ContentType, ms(file.CreatedAt)).Scan(&file.ID)
	if err != nil {
		return nil, fmt.Errorf("store: put file: %w", err)
	}
	if err := f.writeChunks(ctx, file, r, limit); err != nil {
		// The request's context may be what ended; the clean-up must
		// still run.
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if derr := f.remove(cleanup, file.ID); derr != nil {
			err = errors.Join(err, derr)
		}
		return nil, err
	}
	f.db.health.wrote()
	return file, nil
}

// A file's name can say as much as its content ("Jane Doe DUI court
// record.pdf"): it is sealed too, bound to its row, and kept as base64
// text in files.name.
func fileNamePlace(fileID int64) string { return fmt.Sprintf("files.name/%d", fileID) }

func sealFileName(sealer *seal.Sealer, fileID int64, name string) (string, error) {
	sealed, err := sealer.SealFor([]byte(name), fileNamePlace(fileID))
	if err != nil {
		return "", fmt.Errorf("store: seal the name of file %d: %w", fileID, err)
	}
	return base64.StdEncoding.EncodeToString(sealed), nil
}

// openFileName opens what sealFileName stored.
func openFileName(sealer *seal.Sealer, fileID int64, stored string) (string, error) {
	if sealer == nil {
		return "", errNoDataKey
	}
	sealed, err := base64.StdEncoding.DecodeString(stored)
	if err != nil {
		return "", fmt.Errorf("store: the name of file %d is not sealed: %w", fileID, err)
	}
	name, err := sealer.OpenFor(sealed, fileNamePlace(fileID))
	if err != nil {
		return "", fmt.Errorf("store: open the name of file %d: %w", fileID, err)
	}
	return string(name), nil
}

// chunkPlace binds a sealed chunk to its file and position, so a chunk
// copied into another file, or moved within one, does not open.
func chunkPlace(fileID int64, seq int) string {
	return fmt.Sprintf("file:%d:%d", fileID, seq)
}

func (f *FileStore) writeChunks(ctx context.Context, file *portal.File, r io.Reader, limit int64) error {
	sealer := f.db.cfg.Sealer
	if sealer == nil {
		return errNoDataKey
	}
	buf := make([]byte, FileChunkSize)
	sum := sha256.New()
	// One byte past the limit is enough to know it is too large.
	r = io.LimitReader(r, limit+1)
	for seq := 0; ; seq++ {
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if file.Size+int64(n) > limit {
				return portal.Errorf(portal.ETOOLARGE, "The file is too large (the limit is %d bytes).", limit)
			}
			file.Size += int64(n)
			sum.Write(buf[:n])
			sealed, err := sealer.SealFor(buf[:n], chunkPlace(file.ID, seq))
			if err != nil {
				return fmt.Errorf("store: put file chunk %d: %w", seq, err)
			}
			if _, err := f.db.db.ExecContext(ctx, `INSERT INTO file_chunks (file_id, seq, data) VALUES ($1, $2, $3)`,
				file.ID, seq, sealed); err != nil {
				return fmt.Errorf("store: put file chunk %d: %w", seq, err)
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			return fmt.Errorf("store: put file: read: %w", rerr)
		}
	}
	file.SHA256 = hex.EncodeToString(sum.Sum(nil))
	name, err := sealFileName(sealer, file.ID, file.Name)
	if err != nil {
		return err
	}
	if _, err := f.db.db.ExecContext(ctx, `UPDATE files SET name = $1, size = $2, sha256 = $3, complete = TRUE WHERE id = $4`,
		name, file.Size, file.SHA256, file.ID); err != nil {
		return fmt.Errorf("store: put file: finish: %w", err)
	}
	return nil
}

// Get returns a complete file and a reader that fetches its chunks one at
// a time.
func (f *FileStore) Get(ctx context.Context, id int64) (*portal.File, io.ReadCloser, error) {
	var file portal.File
	var subject sql.NullInt64
	var created int64
	err := f.db.pool.QueryRowContext(ctx, `SELECT id, subject_id, name, content_type, size, sha256, created_at
		FROM files WHERE id = $1 AND complete = TRUE`, id).Scan(
		&file.ID, &subject, &file.Name, &file.ContentType, &file.Size, &file.SHA256, &created)
	if err != nil {
		return nil, nil, notFound(err, "File")
	}
	if file.Name, err = openFileName(f.db.cfg.Sealer, file.ID, file.Name); err != nil {
		return nil, nil, err
	}
	file.SubjectID, file.CreatedAt = subject.Int64, fromMS(created)
	return &file, &chunkReader{ctx: ctx, db: f.db, file: file, sum: sha256.New()}, nil
}

// chunkReader reads a file's chunks in order and checks the SHA-256 at the
// end, so content changed or lost in the database is an error, not a
// silently different download.
type chunkReader struct {
	ctx  context.Context
	db   *DB
	file portal.File
	seq  int
	read int64
	buf  []byte // the unread rest of the current chunk
	sum  hash.Hash
	err  error
}

func (c *chunkReader) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.read == c.file.Size {
			if got := hex.EncodeToString(c.sum.Sum(nil)); got != c.file.SHA256 {
				c.err = fmt.Errorf("store: file %d: content has SHA-256 %s, want %s", c.file.ID, got, c.file.SHA256)
			} else {
				c.err = io.EOF
			}
			return 0, c.err
		}
		var sealed []byte
		err := c.db.pool.QueryRowContext(c.ctx, `SELECT data FROM file_chunks WHERE file_id = $1 AND seq = $2`, c.file.ID, c.seq).Scan(&sealed)
		if err != nil {
			c.err = fmt.Errorf("store: file %d: chunk %d missing: %w", c.file.ID, c.seq, errors.Join(err, io.ErrUnexpectedEOF))
			return 0, c.err
		}
		if c.db.cfg.Sealer == nil {
			c.err = errNoDataKey
			return 0, c.err
		}
		data, err := c.db.cfg.Sealer.OpenFor(sealed, chunkPlace(c.file.ID, c.seq))
		if err != nil {
			// Altered, another key, or copied from another file.
			c.err = fmt.Errorf("store: file %d: chunk %d does not open: %w", c.file.ID, c.seq, err)
			return 0, c.err
		}
		if len(data) == 0 || c.read+int64(len(data)) > c.file.Size {
			c.err = fmt.Errorf("store: file %d: chunk %d of the wrong size: %w", c.file.ID, c.seq, io.ErrUnexpectedEOF)
			return 0, c.err
		}
		c.seq++
		c.read += int64(len(data))
		c.sum.Write(data)
		c.buf = data
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

func (c *chunkReader) Close() error {
	c.buf, c.err = nil, errors.New("store: file reader closed")
	return nil
}

// Delete removes a complete file and its chunks.
func (f *FileStore) Delete(ctx context.Context, id int64) error {
	res, err := f.db.pool.ExecContext(ctx, `DELETE FROM files WHERE id = $1 AND complete = TRUE`, id)
	if err != nil {
		return fmt.Errorf("store: delete file: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("store: delete file: %w", err)
	} else if n == 0 {
		return portal.Errorf(portal.ENOTFOUND, "File not found.")
	}
	return nil
}

// remove deletes a file whatever its state; its chunks go with it (ON
// DELETE CASCADE).
func (f *FileStore) remove(ctx context.Context, id int64) error {
	if _, err := f.db.db.ExecContext(ctx, `DELETE FROM files WHERE id = $1`, id); err != nil {
		return fmt.Errorf("store: remove file %d: %w", id, err)
	}
	return nil
}

// DeleteAbandoned removes uploads left unfinished for AbandonedUploadAge
// (a process that died mid-upload cannot clean up after itself) and says
// how many.
func (f *FileStore) DeleteAbandoned(ctx context.Context) (int64, error) {
	res, err := f.db.pool.ExecContext(ctx, `DELETE FROM files WHERE complete = FALSE AND created_at < $1`,
		ms(f.db.now().Add(-AbandonedUploadAge)))
	if err != nil {
		return 0, fmt.Errorf("store: delete abandoned uploads: %w", err)
	}
	return res.RowsAffected()
}
