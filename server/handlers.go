package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// healthTimeout bounds how long /health waits for the database.
const healthTimeout = 2 * time.Second

// health answers {"status":"ok"} when the database answers, else 503
// DATABASE_UNAVAILABLE with Retry-After.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	if err := s.st.Ping(ctx); err != nil {
		if r.Context().Err() != nil {
			return // the client went away
		}
		s.log.Warn("health: database unavailable", "request_id", requestID(w), "err", err)
		s.writeError(w, r, api.Unavailable())
		return
	}
	s.writeData(w, r, http.StatusOK, api.Health{Status: "ok", Waiting: s.Waiting()})
}

func (s *Server) createDebate(w http.ResponseWriter, r *http.Request) {
	req, err := decodeBody(s, w, r, api.DecodeCreateDebate)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.st.Create(r.Context(), protocol.NewDebate{ID: req.DebateID, Title: req.Title,
		Type: protocol.DebateType(req.DebateType), Content: req.MotionContent, ClientRequestID: req.ClientRequestID})
	s.writeResult(w, r, res, err)
}

func (s *Server) listDebates(w http.ResponseWriter, r *http.Request) {
	q, err := api.ParseListQuery(r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.st.List(r.Context(), store.Filter{State: q.State, Limit: q.Limit, Offset: q.Offset,
		PendingFirstOpponent: q.PendingFirstOpponent})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := api.DebateList{Debates: make([]api.Debate, len(page.Debates)), Total: page.Total}
	for i, d := range page.Debates {
		out.Debates[i] = api.FromDebate(d)
	}
	s.writeData(w, r, http.StatusOK, out)
}

func (s *Server) getDebate(w http.ResponseWriter, r *http.Request) {
	limit, err := api.QueryInt(r.URL.Query(), "limit", -1)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.st.Get(r.Context(), r.PathValue("id"), limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	motion := api.FromArgument(c.Motion)
	s.writeData(w, r, http.StatusOK, api.DebateContext{
		Debate: api.FromDebate(c.Debate), Motion: &motion, Arguments: api.FromArguments(c.Arguments),
		AvailableActions: api.AllActions(c.Debate.State),
	})
}

func (s *Server) deleteDebate(w http.ResponseWriter, r *http.Request) {
	if err := s.st.Delete(r.Context(), r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeData(w, r, http.StatusOK, api.Deleted{Deleted: true})
}

func (s *Server) submitClaim(w http.ResponseWriter, r *http.Request) {
	s.submit(w, r, func(body []byte) (protocol.Write, error) {
		req, err := api.DecodeClaim(body)
		return protocol.Write{Type: protocol.Claim, Role: protocol.Role(req.Role), TargetID: req.TargetID,
			Content: req.Content, ClientRequestID: req.ClientRequestID}, err
	})
}

func (s *Server) submitAppeal(w http.ResponseWriter, r *http.Request) {
	s.submit(w, r, targeted(protocol.Appeal))
}

func (s *Server) submitResolution(w http.ResponseWriter, r *http.Request) {
	s.submit(w, r, targeted(protocol.Resolution))
}

func targeted(t protocol.ArgType) func([]byte) (protocol.Write, error) {
	return func(body []byte) (protocol.Write, error) {
		req, err := api.DecodeTargeted(body)
		return protocol.Write{Type: t, Role: protocol.Proposer, TargetID: req.TargetID,
			Content: req.Content, ClientRequestID: req.ClientRequestID}, err
	}
}

func (s *Server) submitIntervention(w http.ResponseWriter, r *http.Request) {
	s.submit(w, r, decodeIntervention)
}

func decodeIntervention(body []byte) (protocol.Write, error) {
	req, err := api.DecodeIntervention(body)
	return protocol.Write{Type: protocol.Intervention, Role: protocol.Arbitrator,
		Content: req.Content, ClientRequestID: req.ClientRequestID}, err
}

func (s *Server) submitRuling(w http.ResponseWriter, r *http.Request) {
	s.submit(w, r, decodeRuling)
}

func decodeRuling(body []byte) (protocol.Write, error) {
	req, err := api.DecodeRuling(body)
	return protocol.Write{Type: protocol.Ruling, Role: protocol.Arbitrator,
		Content: req.Content, Close: req.Close, ClientRequestID: req.ClientRequestID}, err
}

// submit reads and decodes a write's body and runs it through the store.
func (s *Server) submit(w http.ResponseWriter, r *http.Request, decode func([]byte) (protocol.Write, error)) {
	wr, err := decodeBody(s, w, r, decode)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wr.DebateID = r.PathValue("id")
	res, err := s.st.Submit(r.Context(), wr)
	s.writeResult(w, r, res, err)
}

// writeResult answers a write: 201 with the argument and the debate, for a
// replay too.
func (s *Server) writeResult(w http.ResponseWriter, r *http.Request, res protocol.Result, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := writeResult(res)
	s.writeData(w, r, http.StatusCreated, &out)
}

func writeResult(res protocol.Result) api.WriteResult {
	out := api.WriteResult{Debate: api.FromDebate(res.Debate), Argument: api.FromArgument(res.Argument), Replay: res.Replay}
	if res.AutoRuling != nil {
		a := api.FromArgument(*res.AutoRuling)
		out.AutoRuling = &a
	}
	return out
}

// poll answers GET /debates/{id}/poll. Without wait it answers at once, as
// vjcspy/aweave's server does; with wait (seconds, at most 60) it holds the
// request until an argument newer than argument_id is committed, the debate is
// closed, the wait ends, or the server shuts down (then it answers with what is
// there now).
func (s *Server) poll(w http.ResponseWriter, r *http.Request) {
	query := r.URL.RawQuery
	id := r.PathValue("id")
	roleText := api.QueryValue(query, "role")
	if roleText == "" {
		s.writeError(w, r, protocol.Errorf(protocol.CodeInvalidInput, "role is required").
			WithSuggestion("add ?role=proposer or ?role=opponent"))
		return
	}
	role, err := protocol.ParseRole(roleText)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wait, err := parseWait(api.QueryValue(query, "wait"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.wait(r.Context(), id, role, api.QueryValue(query, "argument_id"), wait)
	if err != nil {
		if r.Context().Err() != nil {
			return // the client went away
		}
		s.writeError(w, r, err)
		return
	}
	out := api.PollResult{HasNewArgument: res.HasNew, Action: string(res.Action), DebateID: id,
		DebateState: string(res.Debate.State), LastSeenSeq: res.LastSeenSeq,
		AvailableActions: actions(res.Debate.State, role)}
	if res.Action != "" {
		a := api.FromArgument(res.Argument)
		out.Argument = &a
	}
	out.Arguments = make([]api.Argument, len(res.Arguments))
	for i, a := range res.Arguments {
		if out.Argument != nil && a == res.Argument {
			out.Arguments[i] = *out.Argument // the newest, which ends the list
			continue
		}
		out.Arguments[i] = api.FromArgument(a)
	}
	s.writeData(w, r, http.StatusOK, &out)
}

// pollActions holds api.Actions for every state and role, which polls
// answer with; they are only ever encoded, never changed.
var pollActions = func() map[[2]string][]string {
	m := map[[2]string][]string{}
	for _, st := range protocol.States {
		for _, r := range protocol.Roles {
			m[[2]string{string(st), string(r)}] = api.Actions(st, r)
		}
	}
	return m
}()

// actions is api.Actions(st, role), computed once.
func actions(st protocol.State, role protocol.Role) []string {
	if a, ok := pollActions[[2]string{string(st), string(role)}]; ok {
		return a
	}
	return api.Actions(st, role)
}

// wait runs the store's Wait for a poll. A poll that waits counts in Waiting
// and, when the server begins to shut down, answers at once with what is
// there then; one that does not wait needs neither.
func (s *Server) wait(ctx context.Context, id string, role protocol.Role, after string, wait time.Duration) (protocol.WaitResult, error) {
	if wait <= 0 {
		return s.st.Wait(ctx, id, role, after, 0)
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.stopCtx, cancel)
	defer stop()
	s.waiting.Add(1)
	res, err := s.st.Wait(wctx, id, role, after, wait)
	s.waiting.Add(-1)
	if err != nil && ctx.Err() == nil && s.stopCtx.Err() != nil {
		return s.st.Wait(ctx, id, role, after, 0)
	}
	return res, err
}

func (s *Server) createDocument(w http.ResponseWriter, r *http.Request) {
	req, err := decodeBody(s, w, r, api.DecodeCreateDocument)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	doc, replay, err := s.st.CreateDocument(r.Context(), protocol.NewDocument{Title: req.Title, Content: req.Content, ClientRequestID: req.ClientRequestID})
	s.writeDocument(w, r, http.StatusCreated, doc, replay, err)
}

func (s *Server) submitDocument(w http.ResponseWriter, r *http.Request) {
	req, err := decodeBody(s, w, r, api.DecodeSubmitDocument)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	doc, replay, err := s.st.SubmitDocument(r.Context(), r.PathValue("id"), req.Content, req.ClientRequestID)
	s.writeDocument(w, r, http.StatusCreated, doc, replay, err)
}

func (s *Server) getDocument(w http.ResponseWriter, r *http.Request) {
	version, err := api.QueryInt(r.URL.Query(), "version", 0)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	doc, err := s.st.GetDocument(r.Context(), r.PathValue("id"), version)
	s.writeDocument(w, r, http.StatusOK, doc, false, err)
}

func (s *Server) writeDocument(w http.ResponseWriter, r *http.Request, status int, doc protocol.Document, replay bool, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeData(w, r, status, api.DocumentResult{Document: api.FromDocument(doc), Replay: replay})
}

// parseWait reads a poll's wait: seconds (a number from 0 to 60, fractions
// allowed); none is 0.
func parseWait(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > api.MaxWait.Seconds() {
		return 0, protocol.Errorf(protocol.CodeInvalidInput, "wait: want seconds from 0 to %d, got %q", int(api.MaxWait.Seconds()), v).
			WithSuggestion(fmt.Sprintf("wait at most %d seconds per request and poll again", int(api.MaxWait.Seconds())))
	}
	return time.Duration(f * float64(time.Second)), nil
}
