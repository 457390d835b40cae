package store

import "context"

// SaveRecordForTest writes a subject record as the data pages do, for tests
// of what reads it (the employment entries of the DOT releases).
func (s *DB) SaveRecordForTest(ctx context.Context, subjectID int64, kind string, v any) error {
	return s.saveRecord(ctx, s.db, subjectID, kind, v)
}
