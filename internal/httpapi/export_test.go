package httpapi

import (
	"net/http"
	"time"
)

// StartRender lets tests occupy a renderer (see startRender).
func (s *Server) StartRender(r *http.Request) (release func(), err error) { return s.startRender(r) }

// SetChatKeepAlive shortens the chat event stream's keep-alive interval.
func (s *Server) SetChatKeepAlive(d time.Duration) { s.keepAliveEvery = d }

// SetChatStreamsPerApplicant changes MaxChatStreamsPerApplicant.
func (s *Server) SetChatStreamsPerApplicant(n int) { s.streamsPerApplicant = n }
