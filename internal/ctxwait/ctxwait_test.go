package ctxwait

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

func TestSleep(t *testing.T) {
	stop := errors.New("stopped by the test")
	tests := []struct {
		name     string
		d        time.Duration
		cancelAt time.Duration // 0: never
		want     error
		waited   time.Duration
	}{
		{"full wait", time.Second, 0, nil, time.Second},
		{"ended first", time.Hour, 2 * time.Second, stop, 2 * time.Second},
		{"no wait", 0, 0, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				if tt.cancelAt > 0 {
					time.AfterFunc(tt.cancelAt, func() { cancel(stop) })
				}
				start := time.Now()
				err := Sleep(ctx, tt.d)
				if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
					t.Errorf("Sleep = %v, want %v", err, tt.want)
				}
				if got := time.Since(start); got != tt.waited {
					t.Errorf("waited %v, want %v", got, tt.waited)
				}
			})
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep(ended ctx, 0) = %v, want context.Canceled", err)
	}
}
