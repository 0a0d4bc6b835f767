package teame2e

import (
	"fmt"
	"time"
)

func parseTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("time %v is not a string", v)
	}
	return time.Parse(time.RFC3339Nano, s)
}
