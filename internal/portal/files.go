package portal

import (
	"context"
	"io"
	"time"
)

// MaxUploadSize is the largest file an applicant may upload (spec section
// 5: 20971520 bytes).
const MaxUploadSize = 20 << 20

// File describes a stored file. Its content is read with FileStore.Get.
type File struct {
	ID int64
	// SubjectID is the applicant the file belongs to; 0 for a file of
	// nobody's in particular (a company's form template).
	SubjectID   int64
	Name        string // as uploaded, for the download's file name
	ContentType string
	Size        int64  // bytes
	SHA256      string // of the content, lower-case hex
	CreatedAt   time.Time
}

// FileMeta is what Put is told about a file besides its content.
type FileMeta struct {
	SubjectID   int64
	Name        string
	ContentType string
}

// FileStore keeps files' contents. It knows nothing of who may read what:
// the service that calls it checks File.SubjectID against the caller.
// Every portal process sharing one database sees every file.
type FileStore interface {
	// Put stores what r gives, reading it as it comes (the content is
	// never held whole in memory), and returns the stored file. Past
	// limit bytes it stops reading, stores nothing and fails with
	// ETOOLARGE.
	Put(ctx context.Context, meta FileMeta, r io.Reader, limit int64) (*File, error)
	// Get returns the file and a reader of its content, which fails at the
	// end if the content no longer matches File.SHA256. The caller closes
	// it. An unknown or unfinished file is ENOTFOUND.
	Get(ctx context.Context, id int64) (*File, io.ReadCloser, error)
	// Delete removes the file; an unknown one is ENOTFOUND.
	Delete(ctx context.Context, id int64) error
}
