package portal

// OperatorServices are what the screening provider's and the employer's
// staff do, one service per resource, through the `portal` subcommands and
// the operator API (with an API key). Both call these services, so an
// action is checked and applied the same way whichever way it comes.
//
// Methods that take a companyID act within that company only (an
// applicant, message or banner of another company is ENOTFOUND): the
// operator API passes its key's company. The command line passes 0, which
// means every company.
type OperatorServices struct {
	Invitations InvitationService
	Applicants  ApplicantService
	Companies   CompanyService
	APIKeys     APIKeyService
	Chat        OperatorChatService
	Banners     OperatorBannerService
	Documents   OperatorDocumentService
	Orders      OperatorOrderService
	Maintenance MaintenanceService
	// AdverseActions are the pre-adverse and final adverse-action notices.
	AdverseActions OperatorAdverseActionService
	// Disputes are the applicants' disputes of their report (FCRA 611).
	Disputes OperatorDisputeService
	// Reports lists the views of the reports and the free copy sent.
	Reports OperatorReportService
	// Audit reads the audit trail every service above writes.
	Audit AuditService
	// Webhooks are the employers' endpoints and their deliveries.
	Webhooks WebhookService
	// Screening moves a screening after submission.
	Screening OperatorScreeningService
	// Reminders sends the reminders and lists who is stalled.
	Reminders ReminderService
}
