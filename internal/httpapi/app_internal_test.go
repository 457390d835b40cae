package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"applicantportal/web"
)

func TestNegotiateReadsAcceptEncoding(t *testing.T) {
	all := []appVariant{{coding: codingBrotli}, {coding: codingGzip}, {coding: codingIdentity}}
	gzipOnly := []appVariant{{coding: codingGzip}, {coding: codingIdentity}}
	tests := []struct {
		Name     string
		Header   []string
		Variants []appVariant
		Want     string
	}{
		{"NoHeaderGetsTheFile", nil, all, codingIdentity},
		{"EmptyHeaderGetsTheFile", []string{""}, all, codingIdentity},
		{"BrowserDefaultGetsBrotli", []string{"gzip, deflate, br, zstd"}, all, codingBrotli},
		{"GzipOnly", []string{"gzip, deflate"}, all, codingGzip},
		{"XGzipIsGzip", []string{"x-gzip"}, all, codingGzip},
		{"LetterCaseDoesNotMatter", []string{"GZip, BR"}, all, codingBrotli},
		{"BrRefused", []string{"br;q=0, gzip"}, all, codingGzip},
		{"BrRefusedWithDecimals", []string{"gzip, br;q=0.000"}, all, codingGzip},
		{"HigherQWins", []string{"br;q=0.5, gzip;q=0.8"}, all, codingGzip},
		{"EqualQServerOrder", []string{"gzip;q=0.8, br;q=0.8"}, all, codingBrotli},
		{"SpacesAroundParameters", []string{" br ; q=0.9 , gzip ; q = 1"}, all, codingGzip},
		{"OtherParametersIgnored", []string{"br;level=5;q=0.4, gzip;q=0.3"}, all, codingBrotli},
		{"StarAcceptsAll", []string{"*"}, all, codingBrotli},
		{"StarBelowNamedCoding", []string{"*;q=0.5, gzip"}, all, codingGzip},
		{"StarRefusedButGzipNamed", []string{"gzip, *;q=0"}, all, codingGzip},
		{"IdentityPreferred", []string{"identity, gzip;q=0.5"}, all, codingIdentity},
		{"IdentityOnly", []string{"identity"}, all, codingIdentity},
		{"IdentityRefused", []string{"identity;q=0, gzip;q=0.1"}, all, codingGzip},
		{"ImplicitIdentityLastOfAll", []string{"gzip;q=0.001"}, all, codingGzip},
		{"NothingAcceptableGetsTheFile", []string{"*;q=0"}, all, codingIdentity},
		{"BothRefused", []string{"br;q=0, gzip;q=0"}, all, codingIdentity},
		{"UnknownCodingOnly", []string{"deflate, zstd"}, all, codingIdentity},
		{"QAboveOneIgnored", []string{"br;q=2, gzip;q=0.5"}, all, codingGzip},
		{"MalformedQIgnored", []string{"br;q=high, gzip"}, all, codingGzip},
		{"NegativeQIgnored", []string{"br;q=-1, gzip;q=0.2"}, all, codingGzip},
		{"TooManyDecimalsIgnored", []string{"br;q=0.5555, gzip;q=0.2"}, all, codingGzip},
		{"NamedTwiceHighestCounts", []string{"br;q=0, br;q=0.9, gzip;q=0.5"}, all, codingBrotli},
		{"SeveralHeaderLines", []string{"gzip;q=0.5", "br"}, all, codingBrotli},
		{"BrAcceptedButNotThere", []string{"br"}, gzipOnly, codingIdentity},
		{"BrAndGzipOnlyGzipThere", []string{"br, gzip"}, gzipOnly, codingGzip},
		{"OnlyTheFileThere", []string{"br, gzip"}, []appVariant{{coding: codingIdentity}}, codingIdentity},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			if got := negotiate(tt.Header, tt.Variants).coding; got != tt.Want {
				t.Errorf("negotiate(%q) = %s; want %s", tt.Header, got, tt.Want)
			}
		})
	}
}

func TestETagListed(t *testing.T) {
	const etag = `"abc-br"`
	tests := []struct {
		List string
		Want bool
	}{
		{`"abc-br"`, true},
		{`W/"abc-br"`, true},
		{`"x", "abc-br"`, true},
		{`"x",W/"abc-br"`, true},
		{`*`, true},
		{`"abc"`, false},
		{`"abc-gz"`, false},
		{`abc-br`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := etagListed(tt.List, etag); got != tt.Want {
			t.Errorf("etagListed(%q) = %v; want %v", tt.List, got, tt.Want)
		}
	}
}

// TestEmbeddedAppIsPrecompressed checks the build the binary embeds: every
// text file of a KiB or more (index.html aside, which the server compresses
// at start) has a brotli and a gzip variant that decode to the file, so
// the server never compresses at run time. web/scripts/precompress.mjs
// (`npm run build`) writes them; a build with `vite build` alone fails here.
func TestEmbeddedAppIsPrecompressed(t *testing.T) {
	dist := web.Dist()
	if _, err := fs.Stat(dist, "assets"); err != nil {
		t.Skip("web/dist holds no build (no assets/): build web/ with `npm run build`")
	}
	checked := 0
	err := fs.WalkDir(dist, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == "index.html" || !compressible(name) {
			return err
		}
		raw, err := fs.ReadFile(dist, name)
		if err != nil {
			return err
		}
		if len(raw) < minPrecompressed {
			return nil
		}
		checked++
		for _, v := range precompressedSuffix {
			encoded, err := fs.ReadFile(dist, name+v.suffix)
			if err != nil {
				t.Errorf("%s has no %s variant (%s): build web/ with `npm run build`", name, v.coding, name+v.suffix)
				continue
			}
			if len(encoded) >= len(raw) {
				t.Errorf("%s is %d bytes, its %s variant %d", name, len(raw), v.coding, len(encoded))
			}
			var r io.Reader
			if v.coding == codingBrotli {
				r = brotli.NewReader(bytes.NewReader(encoded))
			} else if r, err = gzip.NewReader(bytes.NewReader(encoded)); err != nil {
				t.Errorf("%s: %v", name+v.suffix, err)
				continue
			}
			decoded, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(decoded, raw) {
				t.Errorf("%s does not decode to %s (a stale variant?): %v", name+v.suffix, name, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no text file of a KiB or more in the build")
	}

	files, err := loadAppFiles(dist, []byte("<!doctype html>"))
	if err != nil {
		t.Fatal(err)
	}
	if files.unprecompressed != 0 {
		t.Errorf("the server finds %d text files without variants", files.unprecompressed)
	}
	for name := range files.byName {
		if strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") {
			t.Errorf("%s is served as a file of its own; want it a variant", name)
		}
	}
}
