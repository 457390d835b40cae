package httpapi

import (
	"encoding/base64"
	"testing"
)

// TestImageURLsAnswerTheImageRead checks that the cache of encoded
// signature images never answers another image than the one read: not for
// a reused signature id, not after starting over when full.
func TestImageURLsAnswerTheImageRead(t *testing.T) {
	url := func(png []byte) string { return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png) }
	var c imageURLs
	a, b := []byte("\x89PNG first image"), []byte("\x89PNG second image")
	tests := []struct {
		name string
		id   int64
		png  []byte
	}{
		{"first encode", 1, a},
		{"hit", 1, a},
		{"same id, other image", 1, b},
		{"back to the first", 1, a},
		{"other id, same image", 2, a},
	}
	for _, tc := range tests {
		if got := c.dataURL(tc.id, tc.png); got != url(tc.png) {
			t.Errorf("%s: got %q, want %q", tc.name, got, url(tc.png))
		}
	}
	for id := int64(0); id < maxImageURLs+10; id++ {
		c.dataURL(id, b)
	}
	if n := len(c.urls); n > maxImageURLs {
		t.Errorf("the cache holds %d images, more than %d", n, maxImageURLs)
	}
	if got := c.dataURL(3, a); got != url(a) {
		t.Errorf("after starting over: got %q", got)
	}
}
