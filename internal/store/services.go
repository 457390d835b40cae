package store

import (
	"time"

	"applicantportal/internal/portal"
)

// ServicesConfig are the outside parties the services call and the event
// hub they publish to, which the caller chooses (serve: the built-in
// sandboxes; the HTTP tests: sandboxes of their own).
type ServicesConfig struct {
	IDV IDVConfig
	// Payments and PaymentTimeout are the self-pay processor and how long
	// one call to it may take (0: the default).
	Payments       portal.PaymentProcessor
	PaymentTimeout time.Duration
	Sites          portal.SiteNetwork
	// Events is the process's event hub; nil leaves the event streams out,
	// and the chat publishes through the database alone.
	Events portal.Events
}

// Services wires every service of the portal on the database: the one
// place where they are put together, for serve and for the HTTP tests.
func (db *DB) Services(cfg ServicesConfig) portal.Services {
	return portal.Services{
		Auth:            db.Auth(),
		Subjects:        db.Subjects(),
		Personal:        db.Personal(),
		Legal:           db.Legal(),
		SubjectData:     db.SubjectData(),
		History:         db.History(),
		Drafts:          db.Drafts(),
		Orders:          db.Orders(),
		Banners:         db.Banners(),
		Documents:       db.Documents(),
		IDV:             db.IDV(cfg.IDV),
		Payments:        db.Payments(cfg.Payments, cfg.PaymentTimeout),
		CollectionSites: db.CollectionSites(cfg.Sites),
		Chat:            db.Chat(cfg.Events),
		AdverseAction:   &AdverseActionService{db},
		Disputes:        db.Disputes(),
		Handoffs:        db.Handoffs(),
		Reports:         db.Reports(),
		Preparation:     db.Preparation(),
		Events:          cfg.Events,
		Reminders:       db.Reminders(),
		Operator:        db.Operator(),
		SignIn:          db.SignIn(),
	}
}

// Operator hands out the operator services alone, which need no outside
// party: the `portal` subcommands call them, as the operator API does.
func (db *DB) Operator() portal.OperatorServices {
	return portal.OperatorServices{
		Invitations:    &InvitationService{db},
		Applicants:     &ApplicantService{db},
		Companies:      &CompanyService{db},
		APIKeys:        &APIKeyService{db},
		Chat:           &OperatorChatService{db},
		Banners:        &OperatorBannerService{db},
		Documents:      &OperatorDocumentService{db},
		Orders:         &OperatorOrderService{db},
		Maintenance:    &MaintenanceService{db},
		Audit:          &AuditService{db},
		Webhooks:       &WebhookService{db},
		AdverseActions: &OperatorAdverseActionService{db},
		Screening:      &OperatorScreeningService{db},
		Disputes:       &OperatorDisputeService{db},
		Reports:        &OperatorReportService{db},
		Reminders:      db.Reminders(),
	}
}
