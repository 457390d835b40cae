package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// The operator API's chat: an employer's system reads its applicants'
// conversations and replies, through the same OperatorChatService as
// `portal chat`.
func (s *Server) registerOperatorChatRoutes(mux *routes) {
	const messages = "/api/v2/operator/applicants/{id}/chat-messages"
	mux.HandleFunc("GET /api/v2/operator/chats", s.operatorOnly(s.handleOperatorChatList))
	mux.HandleFunc("GET "+messages, s.operatorOnly(s.handleOperatorChatShow))
	mux.HandleFunc("POST "+messages, s.operatorOnly(s.handleOperatorChatReply))
	mux.HandleFunc("GET "+messages+"/download-file", s.operatorOnly(s.handleOperatorChatDownload))
}

type operatorChatThread struct {
	Applicant operatorApplicant `json:"applicant"`
	Messages  int               `json:"messages"`
	Unread    int               `json:"unread"`
	Last      chatMessageJSON   `json:"last"`
}

func (s *Server) handleOperatorChatList(w http.ResponseWriter, r *http.Request) {
	threads, err := s.svc.Operator.Chat.ChatThreads(r.Context(), operatorFrom(r.Context()).CompanyID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorChatThread, 0, len(threads))
	for _, t := range threads {
		out = append(out, operatorChatThread{Applicant: newOperatorApplicant(t.Applicant), Messages: t.Messages,
			Unread: t.Unread, Last: newChatMessageJSON(t.Last)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

// operatorApplicantID reads the {id} path value; one that is no id is no
// applicant of the caller's.
func operatorApplicantID(r *http.Request) (int64, error) {
	return pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Applicant not found."))
}

// handleOperatorChatShow answers the conversation and marks the
// applicant's messages read, as `portal chat show` does.
func (s *Server) handleOperatorChatShow(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	list, err := s.svc.Operator.Chat.ChatConversation(r.Context(), operatorFrom(r.Context()).CompanyID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeChatMessages(w, list)
}

// handleOperatorChatReply posts the employer's message: JSON {"message",
// "senderName"?}, or multipart with senderName (optional), message and an
// optional file, as the applicant's side takes it.
func (s *Server) handleOperatorChatReply(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// The body is read in the key's own share of the upload slots, not
	// the applicant's, which no key can then hold.
	key := operatorFrom(r.Context())
	post, err := s.readChatPost(w, r, uploader{apiKey: true, id: key.ID})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer post.release()
	m, err := s.svc.Operator.Chat.ReplyChat(r.Context(), portal.ChatReply{CompanyID: key.CompanyID,
		SubjectID: id, SenderName: post.senderName, Message: post.text, File: post.file})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, newChatMessageJSON(*m))
}

func (s *Server) handleOperatorChatDownload(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	fileID, err := chatFileID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	f, rc, err := s.svc.Operator.Chat.OpenChatAttachment(r.Context(), operatorFrom(r.Context()).CompanyID, id, fileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, f, rc, f.Name)
}
