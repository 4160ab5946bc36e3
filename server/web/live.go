package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/store"
)

// heartbeat is how often an idle event stream sends a comment, so that
// proxies and browsers keep it open.
const heartbeat = 25 * time.Second

// needs returns the debates that wait for the arbitrator (AWAITING_ARBITRATOR
// and INTERVENTION_PENDING), last updated first, at most limit of them, with
// their total.
func (h *handler) needs(ctx context.Context, limit int) (store.Page, error) {
	var out store.Page
	for _, s := range []protocol.State{protocol.AwaitingArbitrator, protocol.InterventionPending} {
		p, err := h.st.List(ctx, store.Filter{State: s, Limit: max(limit, 1)})
		if err != nil {
			return store.Page{}, err
		}
		out.Total += p.Total
		out.Debates = append(out.Debates, p.Debates...)
	}
	slices.SortStableFunc(out.Debates, func(a, b protocol.Debate) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	out.Debates = out.Debates[:min(len(out.Debates), limit)]
	return out, nil
}

// listEvent is what the list's event stream sends after every change.
type listEvent struct {
	Needs int `json:"needs"`
}

// events serves GET /ui/events, the list page's live feed (server-sent
// events): a "change" event at once and after every commit that may change
// the list, carrying how many debates wait for the arbitrator. It ends when
// the client goes away or the server shuts down.
func (h *handler) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	signal, cancel := h.st.Subscribe(store.AllDebates)
	defer cancel()
	h.headers(w, "text/event-stream; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	send := true
	for {
		if send {
			p, err := h.needs(r.Context(), 0)
			if err != nil {
				if r.Context().Err() == nil {
					h.log.Error("web: list events", "request_id", w.Header().Get("X-Request-Id"), "err", err)
				}
				return
			}
			b, _ := json.Marshal(listEvent{Needs: p.Total})
			if _, err := fmt.Fprintf(w, "event: change\ndata: %s\n\n", b); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			send = false
		}
		select {
		case <-r.Context().Done():
			return
		case <-h.done:
			return
		case <-signal:
			send = true
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		}
	}
}
