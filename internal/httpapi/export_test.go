package httpapi

import "net/http"

// StartRender lets tests occupy a renderer (see startRender).
func (s *Server) StartRender(r *http.Request) (release func(), err error) { return s.startRender(r) }
