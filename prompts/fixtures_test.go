package prompts

// fixture holds realistic data for every step of one debate.
type fixture struct {
	root       RootPosition
	involved   ChildPosition
	uninvolved ChildPosition
	rebuttal   Rebuttal
	triage     Judge
	forced     Judge
	repair     Repair
	synthesis  Synthesis
	edits      Edits
}

// minimal holds data with every optional field empty.
type minimal struct {
	root   RootPosition
	child  ChildPosition
	triage Judge
	forced Judge
	budget Judge // verdicts forced by the token budget before the round limit
}

func enFixture() fixture {
	a := Party{ID: "party-a", Label: "Party A"}
	b := Party{ID: "party-b", Label: "Party B"}
	c := Party{ID: "party-c", Label: "Party C"}
	parties := []Party{a, b, c}
	ids := []string{"party-a", "party-b", "party-c"}
	root := "How should the server persist debate state: SQLite or append-only JSON files?"
	annotations := []string{
		"I think JSON files are enough, since we only ever append.",
		"Crash safety matters more than raw speed.\nA half-written file after a power cut is not acceptable.",
	}
	d1 := "Where is the strict ordering of arguments enforced: in the database or in the application?"
	d11 := "Is a single writer goroutine enough, or does every write need its own BEGIN IMMEDIATE transaction?"
	sides := []Side{
		{Party: a, Claim: "A single writer goroutine serialises all writes, so ordering follows from the queue; transactions only add latency."},
		{Party: b, Claim: "Each write must run in a BEGIN IMMEDIATE transaction that reads the last sequence number and inserts the next one.\nThe database, not the process, is the source of truth."},
	}
	posA := "Use SQLite in WAL mode with one writer goroutine.\n\n```go\nfor w := range writes {\n\tw.done <- db.insert(w.arg)\n}\n```\n\nReads go through a separate pool of read-only connections."
	rebA := "Party B is right that a second process could bypass the queue; I add a file lock at start-up so only one server owns the database."
	posB := "Every write runs `BEGIN IMMEDIATE; SELECT max(seq) …; INSERT …; COMMIT`. A unique index on (debate_id, seq) rejects any duplicate."
	rebB := "A single writer is simpler, but it hides ordering in process memory; after a crash the queue is gone and clients must retry anyway."
	posC := "Either works. What matters is an idempotency key on every write so that a retried request is recognised."
	rebC := "I keep my view: the ordering mechanism is secondary to idempotency."
	return fixture{
		root: RootPosition{
			Quotes:  true,
			Party:   a,
			Parties: parties,
			Documents: []Document{{
				Path:    "docs/decisions.md",
				Content: "# Decisions\n\n- D1: one static binary, no cgo.\n- D2: agents talk to the server over HTTP only.\n",
			}},
			Inline:      "Target platforms: Linux and macOS, one host per deployment.",
			Title:       root,
			Background:  "The server hosts up to 50 concurrent debates. Arguments must be strictly ordered per debate, and writes must be idempotent.",
			Annotations: annotations,
			CoreQuestions: []string{
				"How is the strict ordering of arguments guaranteed with concurrent writers?",
				"What happens to a write in flight when the process crashes?",
			},
		},
		involved: ChildPosition{
			Quotes:           true,
			Party:            a,
			Involved:         true,
			RootTitle:        root,
			Path:             []string{d1},
			Title:            d11,
			Sides:            sides,
			Uninvolved:       []Party{c},
			PreviousPosition: posA,
			PreviousRebuttal: rebA,
		},
		uninvolved: ChildPosition{
			Quotes:           true,
			Party:            c,
			RootTitle:        root,
			Path:             []string{d1},
			Title:            d11,
			Sides:            sides,
			Uninvolved:       []Party{c},
			PreviousPosition: posC,
			PreviousRebuttal: rebC,
		},
		rebuttal: Rebuttal{
			Quotes: true,
			Party:  b,
			Title:  root,
			Own:    posB,
			Others: []PartyText{{Party: a, Text: posA}, {Party: c, Text: posC}},
		},
		triage: Judge{
			Quotes:      true,
			RootTitle:   root,
			Annotations: annotations,
			Title:       d1,
			Context:     "Both sides accept SQLite; they disagree on which layer owns the ordering guarantee.",
			Sides: []Side{
				{Party: a, Claim: "The application owns ordering through a single writer goroutine."},
				{Party: b, Claim: "The database owns ordering through transactions and a unique index."},
			},
			Entries: []Entry{
				{Party: a, Position: posA, Rebuttal: rebA},
				{Party: b, Position: posB, Rebuttal: rebB},
				{Party: c, Position: posC, Rebuttal: rebC},
			},
			PartyIDs:       ids,
			Round:          2,
			MaxRounds:      3,
			MaxDivergences: 5,
		},
		forced: Judge{
			Quotes:      true,
			RootTitle:   root,
			Annotations: annotations,
			Title:       d11,
			Sides:       sides,
			Entries: []Entry{
				{Party: a, Position: posA, Rebuttal: rebA},
				{Party: b, Position: posB, Rebuttal: rebB},
				{Party: c, Position: posC, Rebuttal: rebC},
			},
			PartyIDs:  ids,
			Round:     3,
			MaxRounds: 3,
		},
		repair: Repair{
			Previous: "```json\n{\"consensus\": [], \"divergences\": [{\"id\": \"d1\", \"title\": \"Writer model\", \"sides\": {\"party-d\": \"Use a queue.\"}, \"uninvolved\": []}]}\n```",
			Error:    `divergences[0].sides: unknown party id "party-d" (known: party-a, party-b, party-c)`,
		},
		synthesis: Synthesis{
			Title:       root,
			Background:  "The server hosts up to 50 concurrent debates.",
			Annotations: annotations,
			Consensus: []Point{
				{Point: "SQLite in WAL mode", Detail: "All parties prefer SQLite over JSON files: a committed transaction survives a power cut, a half-appended JSON line does not."},
				{Point: "Idempotency keys", Detail: "Every write carries a client-chosen key; a retried write with a known key returns the stored result."},
			},
			Verdicts: []VerdictPoint{{
				Divergence:     d11,
				Recommendation: "Run every write in a BEGIN IMMEDIATE transaction with a unique index on (debate_id, seq).",
				Reasoning:      "The guarantee then survives restarts and a second process.\nExample: two servers started by mistake still cannot both write seq 7.",
			}},
		},
		edits: Edits{
			Documents: []Document{{
				Path:    "docs/decisions.md",
				Content: "# Decisions\n\n- D1: one static binary, no cgo.\n- D2: agents talk to the server over HTTP only.\n",
			}},
			Topics: []TopicConclusion{
				{ID: "storage", Title: root, Conclusion: "Use SQLite (pure Go) in WAL mode. Every write runs in a BEGIN IMMEDIATE transaction; a unique index on (debate_id, seq) enforces order; idempotency keys make retries safe."},
				{ID: "auth", Title: "How do agents authenticate?", Conclusion: "A bearer token per agent, stored hashed; the arbitrator's token is separate and can be rotated without restarting the server."},
			},
		},
	}
}

func zhFixture() fixture {
	a := Party{ID: "party-a", Label: "方 A"}
	b := Party{ID: "party-b", Label: "方 B"}
	c := Party{ID: "party-c", Label: "方 C"}
	parties := []Party{a, b, c}
	ids := []string{"party-a", "party-b", "party-c"}
	root := "服务端应如何持久化辩论状态: SQLite 还是只追加的 JSON 文件?"
	annotations := []string{
		"我认为 JSON 文件就够了，因为我们只做追加。",
		"崩溃安全比性能更重要。\n断电后出现写了一半的文件是不可接受的。",
	}
	d1 := "论点的严格顺序由哪一层保证: 数据库还是应用?"
	d11 := "单个写入 goroutine 是否足够，还是每次写入都需要独立的 BEGIN IMMEDIATE 事务?"
	sides := []Side{
		{Party: a, Claim: "单个写入 goroutine 串行化所有写入，顺序由队列保证；事务只会增加延迟。"},
		{Party: b, Claim: "每次写入都必须在 BEGIN IMMEDIATE 事务中读取最新序号并插入下一个。\n数据库才是唯一可信来源，而不是进程。"},
	}
	posA := "使用 WAL 模式的 SQLite，配合一个写入 goroutine。\n\n```go\nfor w := range writes {\n\tw.done <- db.insert(w.arg)\n}\n```\n\n读取走单独的只读连接池。"
	rebA := "方 B 说得对，第二个进程可能绕过队列；我在启动时加文件锁，保证只有一个服务进程拥有数据库。"
	posB := "每次写入执行 `BEGIN IMMEDIATE; SELECT max(seq) …; INSERT …; COMMIT`。(debate_id, seq) 上的唯一索引拒绝任何重复。"
	rebB := "单写入者更简单，但它把顺序藏在进程内存里；崩溃后队列丢失，客户端无论如何都要重试。"
	posC := "两种都可行。关键是每次写入都带幂等键，这样重试的请求能被识别。"
	rebC := "我坚持原观点: 顺序机制是次要的，幂等性才是关键。"
	return fixture{
		root: RootPosition{
			Quotes:  true,
			Party:   a,
			Parties: parties,
			Documents: []Document{{
				Path:    "docs/decisions.md",
				Content: "# 决策记录\n\n- D1: 单一静态二进制，不使用 cgo。\n- D2: 智能体只通过 HTTP 与服务端通信。\n",
			}},
			Inline:      "目标平台: Linux 和 macOS，每次部署一台主机。",
			Title:       root,
			Background:  "服务端同时承载最多 50 场辩论。每场辩论的论点必须严格有序，写入必须幂等。",
			Annotations: annotations,
			CoreQuestions: []string{
				"并发写入时如何保证论点的严格顺序?",
				"进程崩溃时，正在进行的写入会怎样?",
			},
		},
		involved: ChildPosition{
			Quotes:           true,
			Party:            a,
			Involved:         true,
			RootTitle:        root,
			Path:             []string{d1},
			Title:            d11,
			Sides:            sides,
			Uninvolved:       []Party{c},
			PreviousPosition: posA,
			PreviousRebuttal: rebA,
		},
		uninvolved: ChildPosition{
			Quotes:           true,
			Party:            c,
			RootTitle:        root,
			Path:             []string{d1},
			Title:            d11,
			Sides:            sides,
			Uninvolved:       []Party{c},
			PreviousPosition: posC,
			PreviousRebuttal: rebC,
		},
		rebuttal: Rebuttal{
			Quotes: true,
			Party:  b,
			Title:  root,
			Own:    posB,
			Others: []PartyText{{Party: a, Text: posA}, {Party: c, Text: posC}},
		},
		triage: Judge{
			Quotes:      true,
			RootTitle:   root,
			Annotations: annotations,
			Title:       d1,
			Context:     "双方都接受 SQLite；分歧在于由哪一层负责顺序保证。",
			Sides: []Side{
				{Party: a, Claim: "应用通过单个写入 goroutine 负责顺序。"},
				{Party: b, Claim: "数据库通过事务和唯一索引负责顺序。"},
			},
			Entries: []Entry{
				{Party: a, Position: posA, Rebuttal: rebA},
				{Party: b, Position: posB, Rebuttal: rebB},
				{Party: c, Position: posC, Rebuttal: rebC},
			},
			PartyIDs:       ids,
			Round:          2,
			MaxRounds:      3,
			MaxDivergences: 5,
		},
		forced: Judge{
			Quotes:      true,
			RootTitle:   root,
			Annotations: annotations,
			Title:       d11,
			Sides:       sides,
			Entries: []Entry{
				{Party: a, Position: posA, Rebuttal: rebA},
				{Party: b, Position: posB, Rebuttal: rebB},
				{Party: c, Position: posC, Rebuttal: rebC},
			},
			PartyIDs:  ids,
			Round:     3,
			MaxRounds: 3,
		},
		repair: Repair{
			Previous: "```json\n{\"consensus\": [], \"divergences\": [{\"id\": \"d1\", \"title\": \"写入模型\", \"sides\": {\"party-d\": \"使用队列。\"}, \"uninvolved\": []}]}\n```",
			Error:    `divergences[0].sides: unknown party id "party-d" (known: party-a, party-b, party-c)`,
		},
		synthesis: Synthesis{
			Title:       root,
			Background:  "服务端同时承载最多 50 场辩论。",
			Annotations: annotations,
			Consensus: []Point{
				{Point: "WAL 模式的 SQLite", Detail: "各方都倾向 SQLite 而非 JSON 文件: 已提交的事务能扛过断电，追加了一半的 JSON 行则不能。"},
				{Point: "幂等键", Detail: "每次写入都带客户端选定的键；带已知键的重试直接返回已存结果。"},
			},
			Verdicts: []VerdictPoint{{
				Divergence:     d11,
				Recommendation: "每次写入都在 BEGIN IMMEDIATE 事务中执行，并在 (debate_id, seq) 上建唯一索引。",
				Reasoning:      "这样保证在重启和多进程下依然成立。\n例子: 误启动了两个服务进程，也不可能同时写入 seq 7。",
			}},
		},
		edits: Edits{
			Documents: []Document{{
				Path:    "docs/decisions.md",
				Content: "# 决策记录\n\n- D1: 单一静态二进制，不使用 cgo。\n- D2: 智能体只通过 HTTP 与服务端通信。\n",
			}},
			Topics: []TopicConclusion{
				{ID: "storage", Title: root, Conclusion: "使用 WAL 模式的纯 Go SQLite。每次写入在 BEGIN IMMEDIATE 事务中执行；(debate_id, seq) 唯一索引保证顺序；幂等键保证重试安全。"},
				{ID: "auth", Title: "智能体如何认证?", Conclusion: "每个智能体一个 bearer token，哈希存储；仲裁者的 token 单独管理，可在不重启服务的情况下轮换。"},
			},
		},
	}
}

// minimalFixture keeps only the fields a step cannot do without.
func minimalFixture(f fixture) minimal {
	a, b := f.root.Parties[0], f.root.Parties[1]
	return minimal{
		root: RootPosition{Party: a, Title: f.root.Title},
		child: ChildPosition{
			Party:     b,
			RootTitle: f.root.Title,
			Title:     f.involved.Title,
		},
		triage: Judge{
			Title:     f.root.Title,
			Entries:   []Entry{{Party: a, Position: f.rebuttal.Others[0].Text}, {Party: b, Position: f.rebuttal.Own}},
			PartyIDs:  []string{a.ID, b.ID},
			Round:     1,
			MaxRounds: 3,
		},
		forced: Judge{
			Title:     f.root.Title,
			Entries:   []Entry{{Party: a, Position: f.rebuttal.Others[0].Text}, {Party: b, Position: f.rebuttal.Own}},
			PartyIDs:  []string{a.ID, b.ID},
			Round:     1,
			MaxRounds: 1,
		},
		budget: Judge{
			Title:       f.root.Title,
			Entries:     []Entry{{Party: a, Position: f.rebuttal.Others[0].Text}, {Party: b, Position: f.rebuttal.Own}},
			PartyIDs:    []string{a.ID, b.ID},
			Round:       1,
			MaxRounds:   3,
			BudgetSpent: true,
		},
	}
}

// panelOf is the panel judges' data at the node of forced: the chair listed
// one divergence, between the node's sides, and the third party took none.
func panelOf(forced Judge) PanelVerdict {
	d := forced
	d.Sides = nil
	q := Question{ID: "d1.1.1", Title: "Who owns the write order?", Sides: forced.Sides}
	if len(forced.Entries) > 2 {
		q.Uninvolved = []Party{forced.Entries[2].Party}
	}
	return PanelVerdict{Judge: d, Questions: []Question{q}}
}
