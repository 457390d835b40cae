package httpapi

import (
	"bytes"
	"encoding/base64"
	"sync"
)

// maxImageURLs bounds the signature images imageURLs keeps: an applicant
// signs a handful, so this covers many applicants reading their lists at
// once, at a few KB each.
const maxImageURLs = 2048

// imageURLs remembers the data URL of each signature image it encoded, by
// signature id: the document list answers every image on every call, and
// base64 of the same bytes was a fifth of its CPU. A hit is served only
// when the image is byte for byte the one encoded (a memory compare, far
// cheaper than base64), so a reused id, or another applicant's, can never
// be answered an image that is not the one read. The zero value is ready.
type imageURLs struct {
	mu   sync.Mutex
	urls map[int64]imageURL
}

type imageURL struct {
	png []byte
	url string
}

// dataURL answers the PNG data URL of a signature's image.
func (c *imageURLs) dataURL(signatureID int64, png []byte) string {
	c.mu.Lock()
	hit, ok := c.urls[signatureID]
	c.mu.Unlock()
	if ok && bytes.Equal(hit.png, png) {
		return hit.url
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.urls == nil || len(c.urls) >= maxImageURLs {
		// Starting over is simpler than an eviction order, and a full
		// cache refills from the next reads.
		c.urls = map[int64]imageURL{}
	}
	// png belongs to the caller's signature, which nobody writes to
	// after reading it; keeping a copy keeps the compare honest anyway.
	c.urls[signatureID] = imageURL{png: bytes.Clone(png), url: url}
	return url
}
