package httpapi

import (
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"sync"
	"time"

	"applicantportal/internal/filetype"
	"applicantportal/internal/gate"
	"applicantportal/internal/portal"
)

// MaxUploadBody is the most an upload's whole body may be: the file and
// the multipart framing around it.
const MaxUploadBody = portal.MaxUploadSize + 64<<10

// errUnreadableUpload is a body that is not the multipart the call takes.
var errUnreadableUpload = portal.Errorf(portal.EMALFORMED, "The upload could not be read.")

// MaxUploadsPerApplicant is how many of the upload slots one uploader's
// uploads (an applicant's, or an operator API key's) may hold at once; the
// others wait as for a slot. A body is kept as long as a byte arrives
// every UploadStall, so without it one account could hold every slot for
// UploadLimit with a few bytes a minute.
const MaxUploadsPerApplicant = 3

// uploader is who sends an upload, and so whose share of the slots it
// takes: an applicant, or an operator API key (whatever applicant it
// writes to, so no key can hold an applicant's own share).
type uploader struct {
	apiKey bool
	id     int64 // the subject's, or the key's
}

func applicantUploader(subjectID int64) uploader { return uploader{id: subjectID} }

// applicantUploads holds a gate of MaxUploadsPerApplicant slots per
// uploader with uploads in progress.
type applicantUploads struct {
	mu    sync.Mutex
	gates map[uploader]*applicantGate
}

type applicantGate struct {
	gate  *gate.Gate
	users int // the uploads holding or waiting for this gate
}

// acquire waits up to wait for one of the uploader's slots and returns
// its release.
func (a *applicantUploads) acquire(ctx context.Context, who uploader, wait time.Duration) (release func(), err error) {
	a.mu.Lock()
	if a.gates == nil {
		a.gates = map[uploader]*applicantGate{}
	}
	g := a.gates[who]
	if g == nil {
		g = &applicantGate{gate: gate.New(MaxUploadsPerApplicant, wait, "")}
		a.gates[who] = g
	}
	g.users++
	a.mu.Unlock()
	done := func() {
		a.mu.Lock()
		if g.users--; g.users == 0 {
			delete(a.gates, who)
		}
		a.mu.Unlock()
	}
	slot, err := g.gate.Acquire(ctx)
	if err != nil {
		done()
		return nil, err
	}
	return func() { slot(); done() }, nil
}

// startUpload admits an upload and opens its multipart body: a body
// declared over the limit is refused unread; then it waits for one of
// Config.MaxUploads slots, at most MaxUploadsPerApplicant of them the
// caller's (503 past Config.UploadWait), lets the body
// take as long as it keeps arriving, and caps it at MaxUploadBody. The
// caller calls release once it has read the body. who is the uploader
// whose share the upload takes.
func (s *Server) startUpload(w http.ResponseWriter, r *http.Request, who uploader) (mr *multipart.Reader, release func(), err error) {
	return s.startUploadOf(w, r, who, MaxUploadBody)
}

// startUploadOf is startUpload for a body of several files, capped at
// maxBody.
func (s *Server) startUploadOf(w http.ResponseWriter, r *http.Request, who uploader, maxBody int64) (mr *multipart.Reader, release func(), err error) {
	if release, err = s.admitUpload(w, r, who, maxBody); err != nil {
		return nil, nil, err
	}
	if mr, err = r.MultipartReader(); err != nil {
		release()
		return nil, nil, errUnreadableUpload
	}
	return mr, release, nil
}

// admitUpload is startUpload's admission of a body of at most limit
// bytes, whatever its form (a report's PDF may come bare).
func (s *Server) admitUpload(w http.ResponseWriter, r *http.Request, who uploader, limit int64) (release func(), err error) {
	if r.ContentLength > limit {
		return nil, filetype.ErrTooLarge
	}
	mine, err := s.applicantUploads.acquire(r.Context(), who, s.cfg.UploadWait)
	if err != nil {
		return nil, s.uploads.Busy()
	}
	all, err := s.uploads.Acquire(r.Context())
	if err != nil {
		mine()
		return nil, s.uploads.Busy()
	}
	r.Body = http.MaxBytesReader(w, keepArriving(w, r.Body), limit)
	return func() { all(); mine() }, nil
}

// nextPart is the body's next part; io.EOF when there is none.
func nextPart(mr *multipart.Reader) (*multipart.Part, error) {
	part, err := mr.NextPart()
	if err != nil && !errors.Is(err, io.EOF) {
		err = uploadReadError(err)
	}
	return part, err
}

// lastPart reads the file part of an upload and, at its end, makes sure no
// part follows (one file per request), so the service sees a second part,
// a body past the limit or a broken one as a read error before it stores
// anything.
type lastPart struct {
	mr   *multipart.Reader
	part *multipart.Part
	err  error
}

func (p *lastPart) Read(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	n, err := p.part.Read(b)
	switch {
	case errors.Is(err, io.EOF):
		next, nerr := p.mr.NextPart()
		switch {
		case nerr == nil:
			next.Close()
			p.err = errUnreadableUpload
		case errors.Is(nerr, io.EOF):
			p.err = io.EOF
		default:
			p.err = uploadReadError(nerr)
		}
	case err != nil:
		p.err = uploadReadError(err)
	}
	return n, p.err
}

// uploadReadError says why a body could not be read: past the body limit
// it is too large, else malformed.
func uploadReadError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return filetype.ErrTooLarge
	}
	return errUnreadableUpload
}
