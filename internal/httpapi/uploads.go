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

// MaxUploadsPerApplicant is how many of the upload slots one applicant's
// uploads may hold at once; the others wait as for a slot. A body is kept
// as long as a byte arrives every UploadStall, so without it one account
// could hold every slot for UploadLimit with a few bytes a minute.
const MaxUploadsPerApplicant = 3

// applicantUploads holds a gate of MaxUploadsPerApplicant slots per
// applicant with uploads in progress.
type applicantUploads struct {
	mu    sync.Mutex
	gates map[int64]*applicantGate
}

type applicantGate struct {
	gate  *gate.Gate
	users int // the uploads holding or waiting for this gate
}

// acquire waits up to wait for one of the applicant's slots and returns
// its release.
func (a *applicantUploads) acquire(ctx context.Context, subjectID int64, wait time.Duration) (release func(), err error) {
	a.mu.Lock()
	if a.gates == nil {
		a.gates = map[int64]*applicantGate{}
	}
	g := a.gates[subjectID]
	if g == nil {
		g = &applicantGate{gate: gate.New(MaxUploadsPerApplicant, wait, "")}
		a.gates[subjectID] = g
	}
	g.users++
	a.mu.Unlock()
	done := func() {
		a.mu.Lock()
		if g.users--; g.users == 0 {
			delete(a.gates, subjectID)
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
// caller calls release once it has read the body. subjectID is the
// applicant whose share the upload takes: the caller, or the applicant an
// operator writes to.
func (s *Server) startUpload(w http.ResponseWriter, r *http.Request, subjectID int64) (mr *multipart.Reader, release func(), err error) {
	if r.ContentLength > MaxUploadBody {
		return nil, nil, filetype.ErrTooLarge
	}
	mine, err := s.applicantUploads.acquire(r.Context(), subjectID, s.cfg.UploadWait)
	if err != nil {
		return nil, nil, s.uploads.Busy()
	}
	all, err := s.uploads.Acquire(r.Context())
	if err != nil {
		mine()
		return nil, nil, s.uploads.Busy()
	}
	release = func() { all(); mine() }
	r.Body = http.MaxBytesReader(w, keepArriving(w, r.Body), MaxUploadBody)
	if mr, err = r.MultipartReader(); err != nil {
		release()
		return nil, nil, errUnreadableUpload
	}
	return mr, release, nil
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
