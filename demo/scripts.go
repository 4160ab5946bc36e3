package demo

// A demoDivergence is one disputed question of a demo script: the claims of
// the first two debaters' sides, the verdict a judge forces on it with its
// reason, and the side that verdict takes (0 or 1, -1 for neither).
type demoDivergence struct {
	title, yes, no, verdict, reason string
	favors                          int
}

// A demoPoint is an agreed point and its detail.
type demoPoint struct{ point, detail string }

// A demoEdit is a rule a topic's conclusion adds to a section of a
// shared-context document.
type demoEdit struct{ section, rule string }

// A demoScript is one whole debate of the demo, about a change to a system.
// The root splits into the first two divergences; the first converges, the
// second splits into the third, which converges below the round limit or,
// at it, leaves the fourth open for a forced verdict.
//
// positions[node][voice] and rebuttals[node][voice] are the debaters'
// answers: node 0 is the root, node i+1 divergences[i]; voice is the
// debater's place in Options.Debaters modulo three (one for the change,
// one doubtful of it, one asking what decides). consensus[node] is what the
// judge finds agreed there. The synthesis opens with decision and closes
// with revisit; edits are the rules the conclusion adds to the shared
// context, one per document in turn. cues are the starts of words in a
// topic's title that make the script the one the topic plays.
type demoScript struct {
	cues        []string
	divergences [4]demoDivergence
	positions   [4][3]string
	rebuttals   [4][3]string
	consensus   [4][]demoPoint
	decision    string
	revisit     string
	edits       []demoEdit
}

// demoScripts are the debates of the demo; each topic plays the one its
// title picks (see demoScriptFor). Divergence titles are unique across
// scripts, so that a child's prompt names its script and its node.
var demoScripts = []demoScript{
	// Cost, preconditions and the measurement that ends the switch.
	{
		cues: []string{"cache", "latenc", "upgrad", "migrat", "replac", "databas", "version"},
		divergences: [4]demoDivergence{
			{
				"Is the change worth its cost at the team's current size?",
				"Yes: the incidents of last quarter cost more than the first step does.",
				"Not yet: counted with the learning curve, the first step costs twice as much.",
				"Make the change: even at the larger estimate it costs less than last quarter's incidents.",
				"Both sides accept the two-week estimate, and three engineer-weeks of incidents a quarter cost more.",
				0,
			},
			{
				"What has to be true before the switch, and who checks it?",
				"A flag and a load test at twice the peak, run before the flag moves.",
				"A runbook reviewed by on-call first; the load test checks the code, not the people.",
				"Both are preconditions: the reviewed runbook before the first step, the load test before the flag passes 10%.",
				"The runbook protects the people on call, the load test the code; neither replaces the other.",
				-1,
			},
			{
				"Which measurement decides that the switch is safe?",
				"p99 latency on the affected path, under 200 ms for a week at 10% of traffic.",
				"The error rate, below 0.1% with no new alert of severity two or higher.",
				"Both numbers decide, checked by the on-call lead on the dashboard.",
				"Latency catches the slow path and the error rate the broken one; either alone misses a failure users see.",
				-1,
			},
			{
				"How long must the numbers hold before the switch is complete: one week or two?",
				"One week at 10% of traffic is enough.",
				"Two weeks, one release cycle, or silent failures go unseen.",
				"Two weeks, one release cycle: the flag stays at 10% until both numbers have held that long.",
				"A release cycle is the shortest window in which a silent failure shows; a week at 10% of traffic can miss it.",
				1,
			},
		},
		positions: [4][3]string{
			{
				"I support making the change now, in small steps.\n\n" +
					"- The current design already costs us more in incidents than the change would: two outages last quarter traced back to it.\n" +
					"- Each step can be shipped and rolled back on its own, behind a flag.\n\n" +
					"What I would not do is change everything in one release. The first step moves one path and nothing else, and it can ship this month.",
				"I would wait one quarter.\n\n" +
					"The risk is not the code but the operations around it: on-call, dashboards and runbooks all change at once. Before we switch I want:\n\n" +
					"1. a load test at twice today's peak,\n" +
					"2. a rollback that takes minutes, not hours,\n" +
					"3. one engineer who owns the migration end to end.",
				"Both sides have a point; the deciding question is measurement.\n\n" +
					"If we cannot say *which number* tells us the new path is safe, we are not ready. Define it first — for example p99 latency under 200 ms and an error rate below 0.1% for a week — then move, in the steps the first position describes.",
			},
			{
				"Yes. Two outages last quarter cost about three engineer-weeks of firefighting; the first step of the change costs one week. At our size we cannot afford to keep paying the incident tax.",
				"The arithmetic leaves out the learning curve: every engineer on the team has to relearn the deploy path. Counted honestly, the first step costs two weeks, not one — still less than the outages, I concede.",
				"The cost question settles itself once we write the numbers down: incidents in hours per month before and after. I expect the change to pay for itself within a year, but I want the table, not the hunch.",
			},
			{
				"Two things before the switch: the flag, and a load test at twice the peak on the staging copy. I will run the test myself; the results go in the pull request.",
				"A runbook first, reviewed by whoever is on call that week. Without it the first page at 3 a.m. lands on someone who has never seen the new path.",
				"Whatever the list, someone has to check it against a number. I would name the on-call lead as the person who signs off, with the dashboard as evidence.",
			},
			{
				"p99 latency on the affected path: it is the number users feel first. Under 200 ms for a week at 10% of traffic is enough.",
				"Error rate, not latency: a fast wrong answer is worse than a slow right one. Below 0.1% for a week, and no new alert of severity two or higher.",
				"Both numbers, and a week is too short: one release cycle, which is two weeks here. A single number invites gaming the dashboard.",
			},
		},
		rebuttals: [4][3]string{
			{
				"The load test is a fair demand and I accept it. A whole quarter of waiting is not: the two outages will not wait with us. I revise my proposal: first step behind a flag this month, load test before the flag reaches 100%.",
				"A flag does limit the blast radius, I grant that. My concern stands for the on-call side: the runbook has to exist **before** the first step ships, not after the first page at 3 a.m.",
				"We agree more than it looks. The open point is who decides that the numbers are good enough; I propose the on-call lead signs off, with the dashboard as evidence.",
			},
			{
				"Two weeks instead of one is a fair correction, and the change still pays: I accept the larger estimate.",
				"With the estimate corrected I have no objection on cost; my doubts are about readiness, not price.",
				"The table now exists in outline and it favours the change; I withdraw my request for more figures on cost.",
			},
			{
				"A reviewed runbook before the first step is cheap; I add it to my list. I still want the load test before the flag moves.",
				"The load test is welcome, but it checks the code, not the people. I keep the runbook as a precondition.",
				"Both lists are preconditions; neither says when the switch is done. That is the question left open.",
			},
			{
				"Latency catches the slow path, the error rate the broken one; I would accept both, but a week at 10% is enough.",
				"A week of latency alone misses silent failures. Two weeks and the error rate, or I cannot sign off.",
				"We keep disagreeing about the window, one week or two; the judge should decide, since both sides have argued it fully.",
			},
		},
		consensus: [4][]demoPoint{
			{
				{"Measure before and after the change", "p99 latency and error rate, on the existing dashboard."},
				{"Keep a way back for one release", "The old path stays deployable until the switch is complete."},
			},
			{{"The change pays for itself within a year", "Counting the incidents of last quarter."}},
			{{"A written runbook before the first step", "Reviewed by on-call."}},
			{{"Both numbers decide, on the dashboard", "p99 under 200 ms and errors below 0.1%, checked by the on-call lead."}},
		},
		decision: "Decision: make the change in small steps; the first one ships this month behind a flag.",
		revisit:  "Revisit the decision if the numbers on the dashboard do not hold at 10% of traffic.",
		edits: []demoEdit{
			{"Rollouts", "Every change of this size ships behind a flag; the flag passes 10% only after a load test at twice the peak and a runbook reviewed by on-call."},
			{"Measurements", "A switch is complete when p99 latency and the error rate have held their targets at 10% of traffic for one release cycle."},
		},
	},
	// What users see when the new path fails, retries, paging.
	{
		cues: []string{"async", "retr", "queue", "outbox", "timeout", "webhook", "event"},
		divergences: [4]demoDivergence{
			{
				"What does the user see when the new path fails: an error at once or a pending state?",
				"A pending state with a plain message; the work finishes when the path recovers.",
				"An error at once: a pending state that never resolves is worse than a failure the user can retry.",
				"A pending state, with a limit: after 15 minutes it becomes a failure the user is told about.",
				"Most failures of last quarter cleared within minutes, so pending spares those users; the limit keeps the rare long one from hanging in silence.",
				0,
			},
			{
				"Is a retry safe without a deduplication key on every write?",
				"Yes for reads and for writes that replace state; only appends need a key.",
				"No: every write carries a key, or a retry after a timeout does the work twice.",
				"Every write carries a deduplication key, checked where the work is done, not where it is requested.",
				"A timeout tells the caller nothing about whether the work happened; only the receiving side can tell a retry from a new request.",
				1,
			},
			{
				"Which failures of the new path wake someone up at night?",
				"Only what users feel: work stuck for more than 15 minutes.",
				"Also a backlog of pending work that has grown for 10 minutes, before any user notices.",
				"Page on work stuck for 15 minutes and on a backlog growing for 10; everything else waits for the morning.",
				"The backlog warns before users are hurt, the stuck work says they already are; each alone either pages too late or misses the slow leak.",
				-1,
			},
			{
				"Who may turn the new path off during an incident: the on-call engineer alone, or only with the owning team?",
				"The on-call engineer alone, at once; that is what the flag is for.",
				"Only with the owning team: turning it off leaves pending work that someone has to finish by hand.",
				"The on-call engineer turns the new path off alone; the owning team finishes the pending work the next morning, by the runbook.",
				"During an incident minutes count more than a second opinion, and pending work can wait a few hours once nothing new arrives.",
				0,
			},
		},
		positions: [4][3]string{
			{
				"I support the change, because it makes failures smaller.\n\n" +
					"- Today one slow dependency holds the whole request until it times out, and a retry can do the work twice.\n" +
					"- After the change the caller learns at once that the work is accepted, through one entry point: `func Submit(ctx context.Context, req Request) (<-chan Result, error)`. The result arrives when the work is done, and a retry carries the same key.\n\n" +
					"The first step covers one caller, behind a flag.",
				"I am not convinced yet.\n\n" +
					"The change trades a failure the user sees for one they may not: work that is accepted and then never finishes. Before we switch I want to know:\n\n" +
					"1. what the user sees while the work is pending,\n" +
					"2. how a retry is kept from doing the work twice,\n" +
					"3. who is woken up when pending work stops moving.",
				"Both failure modes are real; the question is which one we can *see*.\n\n" +
					"A failed request shows in the error rate at once; stuck work shows only if we measure its age. I am for the change if the age of the oldest pending item is on the dashboard, with an alert, before the first caller moves.",
			},
			{
				"A pending state. Most of last quarter's failures cleared within minutes; an error would have sent those users away for nothing.",
				"An error. A pending state that never ends is the worst answer: the user waits, then asks support, and support cannot see anything either.",
				"Pending, with a deadline: after a fixed time the user is told it failed, and support sees the same state the user does.",
			},
			{
				"Reads and writes that replace state are safe to retry as they are. Only appends need a key, and there are two of them.",
				"Every write needs a key. A timeout tells the caller nothing about whether the write happened, and last quarter's duplicates came from exactly that.",
				"Wherever the key is, it has to be checked where the work is done. A key checked at the front door stops a double click, not a retry after a timeout.",
			},
			{
				"Page only on what users feel: work stuck for more than 15 minutes. Anything earlier wakes people for problems that fix themselves.",
				"Page on a growing backlog too. By the time work is 15 minutes old, every user who started something since is waiting.",
				"Both alerts are useful; what matters more is who may act on them at night, and how.",
			},
		},
		rebuttals: [4][3]string{
			{
				"Stuck work is the real risk, I agree, and measuring its age is cheap; I add it to the first step. I do not agree that the user must see an error at once.",
				"An alert on the oldest pending item answers my third question. The first two stand: what the user sees, and whether a retry is safe without a key on every write.",
				"On measuring stuck work we now agree. The open points are what the user sees when the work fails and whether retries are safe.",
			},
			{
				"A deadline on the pending state is right; 15 minutes covers every failure that cleared on its own last quarter.",
				"With a deadline, and the same state shown to support, I accept the pending state.",
				"Pending with a 15-minute deadline it is; nothing is left to argue on this point.",
			},
			{
				"Checking the key on the receiving side convinces me: a key on every write, then. It costs a column and an index.",
				"Agreed on keys checked where the work is done. What nobody has settled is who is woken up when the work stops.",
				"Retries are settled. Paging is the open point.",
			},
			{
				"The backlog alert is reasonable if it needs 10 minutes of growth, not a single spike. Then the on-call engineer must be free to turn the new path off alone.",
				"Both alerts, then. But turning the new path off leaves pending work behind, and the owning team has to be part of that call.",
				"We now disagree only on who may turn the new path off during an incident; both sides have argued it, and the judge should decide.",
			},
		},
		consensus: [4][]demoPoint{
			{
				{"Measure the age of the oldest pending item", "On the dashboard, with an alert, before the first caller moves."},
				{"One caller first, behind a flag", "The flag sends that caller back to the old path at once."},
			},
			{{"Pending for at most 15 minutes", "After that the user is told the work failed, and support sees the same state."}},
			{{"A deduplication key on every write", "Checked where the work is done, not where it is requested."}},
			{{"Two alerts wake someone up", "Work stuck for 15 minutes, and a backlog that has grown for 10."}},
		},
		decision: "Decision: make the change, one caller first and behind a flag; work that is not done within 15 minutes is reported to the user as failed.",
		revisit:  "Revisit the decision if work stays pending past 15 minutes more than once a week, or if a duplicate gets through despite the keys.",
		edits: []demoEdit{
			{"Failures", "Work a user started is done, pending for at most 15 minutes, or reported as failed; every write carries a deduplication key checked where the work is done."},
			{"On call", "Work stuck for 15 minutes and a backlog growing for 10 page at night; the on-call engineer may turn the new path off alone."},
		},
	},
	// Where the boundary goes, who owns it, how both paths agree.
	{
		cues: []string{"extract", "service", "split", "monolith", "module", "boundar", "owner"},
		divergences: [4]demoDivergence{
			{
				"Where does the first step draw the boundary: around the calls or around the data?",
				"Around the calls: one interface in front of the old code, so callers switch before any data moves.",
				"Around the data: until the tables are separated, an interface only hides the coupling.",
				"Draw it around the calls first and move the data in the second step, behind the same interface.",
				"The interface ships in a week and comes out in a day; moving the tables first blocks every other team for a month.",
				0,
			},
			{
				"Who carries the pager for the new part from the day it ships?",
				"The team that builds it, for the first two months.",
				"The existing rotation: the team is too small to staff a second one.",
				"The existing rotation carries it, with the builders as second line for the first two months.",
				"A second rotation doubles night duty for a small team; a second line keeps the knowledge close without it.",
				1,
			},
			{
				"How do the old and the new path stay consistent while both run?",
				"Write to both and compare every night.",
				"Never write twice: each record has one owner, and the other side reads through it.",
				"One writer per record, with a nightly comparison of what each side reports.",
				"Double writes create the very mismatches the comparison has to find; a single writer removes them, and the comparison still catches a bug in the read path.",
				1,
			},
			{
				"When is the old path deleted: after a month without a mismatch, or only once no caller is left?",
				"After a month without a mismatch; dead code left in place attracts new callers.",
				"Only once the last caller is gone, whatever the calendar says.",
				"Delete the old path once its last caller is gone and the comparison has been clean for a month.",
				"A date alone deletes code that someone still calls; a caller count alone lets the old path linger for years.",
				-1,
			},
		},
		positions: [4][3]string{
			{
				"I am for the change, and I would start at the interface.\n\n" +
					"- Callers reach into the old code in many places today; every change there needs a review from three teams.\n" +
					"- The first step puts one interface in front of it. Callers switch to it one at a time, and the code behind it can move later.\n\n" +
					"Nothing moves in the data until every caller uses the interface.",
				"I am against doing it now, not against the idea.\n\n" +
					"The coupling is in the data, not in the calls: the same tables are read by reports, admin pages and nightly jobs. An interface in front of the calls leaves all of those in place. Before we start I want to know:\n\n" +
					"1. which tables the new part will own,\n" +
					"2. who reads them today,\n" +
					"3. who is paged when the new part fails at night.",
				"The question is less *whether* than *who owns what*.\n\n" +
					"Every split I have seen went wrong at the seams: two writers of one record, or a part nobody on call understood. If we can name one owner for each record and one rotation for the new part, I am for it; if we cannot, we are not ready.",
			},
			{
				"Around the calls. An interface ships in a week and comes out again in a day; a table move ships in a month and does not come out at all.",
				"Around the data. I have seen interfaces become a second copy of the old API with the same coupling behind it. Moving the tables is the change; the rest is packaging.",
				"Both can be right, in order: the interface first, because it is cheap to undo, and the tables second, with the interface as the only door to them.",
			},
			{
				"The builders carry the pager for two months. They know the failure modes; nobody else does yet.",
				"The existing rotation. The team is too small for a second one, and a rotation of three burns out within a quarter.",
				"Whoever is paged needs a runbook written by the builders and one rehearsal of a failure before the first page.",
			},
			{
				"Write to both paths and compare every night. It is the only way to see the new path's answers before anyone relies on them.",
				"One writer per record. Double writes drift on the first partial failure, and then the nightly report is a list of our own bugs.",
				"Whichever we pick, the comparison is worth having: it is how we learn the new path is right before the old one goes.",
			},
		},
		rebuttals: [4][3]string{
			{
				"Fair point about the tables: the interface does not remove the coupling in the data. It makes the next step possible, though, and I will list the readers of each table before the first caller switches.",
				"A list of readers is what I asked for, and the interface costs little; I accept it as a first step. Who is paged is still unanswered, and I will not sign off without it.",
				"Two things are still open: where the first step's boundary lies, and who carries the pager. Those are the questions to settle next.",
			},
			{
				"The order just proposed, the interface first and the tables behind it, is mine too. I accept that the tables are the real change.",
				"If the interface is the only door to the tables afterwards, my objection falls; I withdraw it on that condition.",
				"We agree on the order; I have nothing to add on this point.",
			},
			{
				"A rotation of three is too thin, I grant it. The builders can be the second line instead: called by the on-call engineer, not by the pager.",
				"A second line suits me, and so does the rehearsal. That leaves the question of how both paths agree on a record while they run side by side.",
				"The pager is settled with a second line and a rehearsal; consistency while both paths run is the open point.",
			},
			{
				"A single writer is safer, I accept it, provided the nightly comparison stays. What remains is when the old path can go.",
				"Keep the comparison, by all means. But the old path goes when its last caller is gone, not on a date.",
				"We disagree only on when the old path is deleted; both sides have argued it, and the judge should decide.",
			},
		},
		consensus: [4][]demoPoint{
			{
				{"An interface in front of the old code", "Callers switch to it one at a time; afterwards nothing else calls the old code."},
				{"A list of each table's readers", "Written before the first caller switches."},
			},
			{{"The interface comes first, the tables second", "Once the tables move, the interface is the only way to reach them."}},
			{{"A rehearsed failure before the first page", "The builders write the runbook and run one failure drill with the on-call engineers."}},
			{{"A nightly comparison of both paths", "It runs until the old path is deleted, and a mismatch opens an incident."}},
		},
		decision: "Decision: make the change, starting with one interface in front of the old code; callers switch to it one at a time, and the data moves behind it afterwards.",
		revisit:  "Revisit the decision if the nightly comparison still finds mismatches after a month, or if the new part pages on-call more than once a week.",
		edits: []demoEdit{
			{"Boundaries", "A part that moves gets one interface first; its tables move behind that interface, and each record has exactly one writer."},
			{"On call", "A new part is carried by the existing rotation, with its builders as second line, after one rehearsed failure."},
		},
	},
}
