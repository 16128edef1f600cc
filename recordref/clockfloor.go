package recordref

import (
	"context"
	"fmt"
)

// FindClockFloor is the floor of clock_version: where the ref first holds
// a record of clock_version at least version. A sessiongate that wrote one
// writes it in every record after, so a record without it written later is
// a downgrade (a record that drops clock_version skipped the time check).
func FindClockFloor(ctx context.Context, dir, tip string, version int) (*SchemaFloor, error) {
	return findFloor(ctx, dir, tip, fmt.Sprintf("clock_version %d", version), func(h *floorHead) bool { return h.ClockVersion >= version })
}

// FindContinuesFloor is the floor of continues_version: where the ref first
// holds a record of continues_version at least version. A record without
// it written later is a downgrade: it would get verify's leniency for
// records from before sessions recorded what they continue.
func FindContinuesFloor(ctx context.Context, dir, tip string, version int) (*SchemaFloor, error) {
	return findFloor(ctx, dir, tip, fmt.Sprintf("continues_version %d", version), func(h *floorHead) bool { return h.ContinuesVersion >= version })
}
