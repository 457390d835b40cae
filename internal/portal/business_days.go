package portal

import "time"

// Business days, which the estimates of services and the adverse-action
// waiting period both count: weekdays that are not US federal holidays.

// Day is t's calendar day in UTC, at midnight: the unit business days
// count in.
func Day(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// IsBusinessDay reports whether d is a weekday that is not a US federal
// holiday (as observed).
func IsBusinessDay(d time.Time) bool {
	d = Day(d)
	if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	// A holiday on 1 January of next year may be observed on 31 December.
	for _, year := range []int{d.Year(), d.Year() + 1} {
		for _, h := range federalHolidays(year) {
			if h.Equal(d) {
				return false
			}
		}
	}
	return true
}

// WaitingPeriodEnds is the last day of a waiting period of n business
// days for a notice sent at sent: counted from the next day, so a notice
// sent on Wednesday, November 25, 2026 with 5 days ends on Thursday,
// December 3 (Thanksgiving does not count).
func WaitingPeriodEnds(sent time.Time, n int) time.Time {
	d := Day(sent)
	for n > 0 {
		d = d.AddDate(0, 0, 1)
		if IsBusinessDay(d) {
			n--
		}
	}
	return d
}

// BusinessDaysLeft counts the business days of a waiting period that
// began the day after sent and ends on endsOn, from now's day (included)
// on: 0 once endsOn has passed.
func BusinessDaysLeft(now, sent, endsOn time.Time) int {
	d := Day(now)
	if first := Day(sent).AddDate(0, 0, 1); d.Before(first) {
		d = first
	}
	n := 0
	for ; !d.After(endsOn); d = d.AddDate(0, 0, 1) {
		if IsBusinessDay(d) {
			n++
		}
	}
	return n
}

// federalHolidays are the US federal holidays of a year (5 U.S.C. 6103)
// on the days they are observed: one on a Saturday is observed on the
// Friday before, one on a Sunday on the Monday after.
func federalHolidays(year int) []time.Time {
	date := func(m time.Month, d int) time.Time { return time.Date(year, m, d, 0, 0, 0, 0, time.UTC) }
	observed := func(d time.Time) time.Time {
		switch d.Weekday() {
		case time.Saturday:
			return d.AddDate(0, 0, -1)
		case time.Sunday:
			return d.AddDate(0, 0, 1)
		}
		return d
	}
	// nth is the nth weekday wd of month m; n = -1 is the last.
	nth := func(m time.Month, wd time.Weekday, n int) time.Time {
		if n < 0 {
			d := date(m+1, 1).AddDate(0, 0, -1)
			for d.Weekday() != wd {
				d = d.AddDate(0, 0, -1)
			}
			return d
		}
		d := date(m, 1)
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, 1)
		}
		return d.AddDate(0, 0, 7*(n-1))
	}
	return []time.Time{
		observed(date(time.January, 1)),      // New Year's Day
		nth(time.January, time.Monday, 3),    // Birthday of Martin Luther King, Jr.
		nth(time.February, time.Monday, 3),   // Washington's Birthday
		nth(time.May, time.Monday, -1),       // Memorial Day
		observed(date(time.June, 19)),        // Juneteenth National Independence Day
		observed(date(time.July, 4)),         // Independence Day
		nth(time.September, time.Monday, 1),  // Labor Day
		nth(time.October, time.Monday, 2),    // Columbus Day
		observed(date(time.November, 11)),    // Veterans Day
		nth(time.November, time.Thursday, 4), // Thanksgiving Day
		observed(date(time.December, 25)),    // Christmas Day
	}
}

// AddBusinessDays is the date n business days after t's date, in UTC;
// with n = 0, t's date itself or the next business day when it is not one.
func AddBusinessDays(t time.Time, n int) time.Time {
	d := Day(t)
	for !IsBusinessDay(d) {
		d = d.AddDate(0, 0, 1)
	}
	for n > 0 {
		d = d.AddDate(0, 0, 1)
		if IsBusinessDay(d) {
			n--
		}
	}
	return d
}
