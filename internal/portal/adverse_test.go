package portal_test

import (
	"testing"
	"time"

	"applicantportal/internal/portal"
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestBusinessDaysSkipWeekendsAndFederalHolidaysAsObserved(t *testing.T) {
	tests := []struct {
		name string
		day  string
		want bool
	}{
		{"Weekday", "2026-12-02", true},
		{"Saturday", "2026-12-05", false},
		{"Sunday", "2026-12-06", false},
		{"Thanksgiving", "2026-11-26", false},
		{"DayAfterThanksgivingIsNoHoliday", "2026-11-27", true},
		{"ChristmasOnFriday", "2026-12-25", false},
		{"IndependenceDayOnSaturdayObservedFriday", "2026-07-03", false},
		{"JuneteenthOnSundayObservedMonday", "2022-06-20", false},
		{"NewYearOnSaturdayObservedTheFridayBefore", "2021-12-31", false},
		{"MartinLutherKingDay", "2027-01-18", false},
		{"MemorialDayLastMonday", "2026-05-25", false},
		{"LaborDay", "2026-09-07", false},
		{"ColumbusDay", "2026-10-12", false},
		{"VeteransDay", "2026-11-11", false},
		{"WashingtonsBirthday", "2027-02-15", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := portal.IsBusinessDay(day(tt.day)); got != tt.want {
				t.Errorf("IsBusinessDay(%s) = %v, want %v", tt.day, got, tt.want)
			}
		})
	}
}

func TestWaitingPeriodEndsAfterItsBusinessDays(t *testing.T) {
	at := func(s string) time.Time { return day(s).Add(15 * time.Hour) }
	tests := []struct {
		name string
		sent time.Time
		days int
		want string
	}{
		{"FiveFromMondayEndNextMonday", at("2026-11-30"), 5, "2026-12-07"},
		{"FiveAcrossThanksgiving", at("2026-11-25"), 5, "2026-12-03"},
		{"SentOnSaturdayCountsFromMonday", at("2026-12-05"), 1, "2026-12-07"},
		{"AcrossChristmasAndNewYear", at("2026-12-23"), 6, "2027-01-04"},
		{"TenOverTwoWeekends", at("2026-12-01"), 10, "2026-12-15"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := portal.WaitingPeriodEnds(tt.sent, tt.days).Format(time.DateOnly); got != tt.want {
				t.Errorf("ends %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBusinessDaysLeftCountTodayUntilThePeriodEnds(t *testing.T) {
	sent, ends := day("2026-11-25"), day("2026-12-03") // Wednesday before Thanksgiving, a Thursday
	tests := []struct {
		name string
		now  string
		want int
	}{
		{"TheDaySent", "2026-11-25", 5},
		{"TheDayAfterThanksgiving", "2026-11-27", 5},
		{"TheWeekendBetween", "2026-11-28", 4},
		{"Monday", "2026-11-30", 4},
		{"TheLastDay", "2026-12-03", 1},
		{"TheDayAfterHasEnded", "2026-12-04", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := portal.BusinessDaysLeft(day(tt.now).Add(23*time.Hour), sent, ends); got != tt.want {
				t.Errorf("left on %s = %d, want %d", tt.now, got, tt.want)
			}
		})
	}
}

func TestAdverseWaitingDaysRefuseZero(t *testing.T) {
	for _, v := range []string{"0", "-1", "31", "five", ""} {
		if _, err := portal.ParseAdverseWaitingDays("waitingDays", v); portal.ErrorCode(err) != portal.EINVALID {
			t.Errorf("%q: %v, want EINVALID", v, err)
		}
	}
	for _, c := range []struct {
		v    string
		want int
	}{{"1", 1}, {" 5 ", 5}, {"30", 30}} {
		if n, err := portal.ParseAdverseWaitingDays("waitingDays", c.v); err != nil || n != c.want {
			t.Errorf("%q = %d, %v", c.v, n, err)
		}
	}
	zero := 0
	if err := (portal.PreAdverseRequest{WaitingDays: &zero}).Validate(); portal.ErrorCode(err) != portal.EINVALID {
		t.Errorf("a waiting period of 0: %v", err)
	}
}
