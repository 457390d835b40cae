package portal

// Services are every service of the portal, the applicants' and the
// operators', as the storage adapter builds them (store.DB.Services) for
// the HTTP API and the command line.
type Services struct {
	Auth        AuthService
	Subjects    SubjectService
	Personal    PersonalService
	Legal       LegalService
	SubjectData SubjectDataService
	History     HistoryService
	// Drafts keeps the forms' unsubmitted input.
	Drafts          DraftService
	Orders          OrderService
	Banners         BannerService
	Documents       DocumentService
	IDV             IDVService
	Payments        PaymentService
	CollectionSites CollectionSiteService
	Chat            ChatService
	AdverseAction   AdverseActionService
	Disputes        DisputeService
	// Handoffs continue the application on another device.
	Handoffs HandoffService
	// Reports opens the reports after the applicant confirms who they are.
	Reports ReportService
	// Preparation is the Welcome step's list of what the applicant will
	// need, its time estimate and the "I'll find this later" marks.
	Preparation PreparationService
	// Events carries chat notices to the applicants' event streams.
	Events Events
	// Reminders are the applicant's stop links and browser time zone.
	Reminders ReminderService
	// Operator serves the command line and the operator API.
	Operator OperatorServices
	// SignIn renews links and signs in with one-time codes.
	SignIn SignInService
}
