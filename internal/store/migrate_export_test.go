package store

import "context"

// UndoLastMigrationForTest leaves the database as a portal one migration
// older would have: the newest migration is undone.
func (s *DB) UndoLastMigrationForTest(ctx context.Context) error {
	p, err := s.migrations(ctx)
	if err != nil {
		return err
	}
	_, err = p.Down(ctx)
	return err
}

// MigrationVersionsForTest says which migration the database is at and
// which is the newest the binary holds.
func (s *DB) MigrationVersionsForTest(ctx context.Context) (current, latest int64, err error) {
	p, err := s.migrations(ctx)
	if err != nil {
		return 0, 0, err
	}
	if current, err = p.GetDBVersion(ctx); err != nil {
		return 0, 0, err
	}
	sources := p.ListSources()
	return current, sources[len(sources)-1].Version, nil
}
