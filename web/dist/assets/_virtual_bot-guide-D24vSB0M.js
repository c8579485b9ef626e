var e=`<h1>Writing a Clack bot</h1>
<p>A bot is a <a href="https://rhai.rs">Rhai</a> script that defines one function:</p>
<pre><code class="language-rhai">fn choose(view) {
    0   // an index into view.legal
}
</code></pre>
<p>Whenever the bot&#39;s seat is to move, the server calls <code>choose</code> with the seat&#39;s <strong>view</strong> of the
game and plays <code>view.legal[index]</code>. That is the whole contract.</p>
<p>(A bot in another language runs as your own program instead, a <em>remote bot</em> that connects to the
server and plays its seats over the gRPC API: see the starters in <code>clients/python</code> and
<code>clients/node</code> of the repository, and docs/ladder.md. This guide is about Rhai scripts.)</p>
<h2 id="the-examples">The examples</h2>
<table>
<thead>
<tr>
<th>file</th>
<th>game</th>
<th>what it does</th>
</tr>
</thead>
<tbody><tr>
<td><code>straight-random.rhai</code></td>
<td>Straight Dominoes</td>
<td>a legal action picked from <code>view.nonce</code> (the yardstick)</td>
</tr>
<tr>
<td><code>straight-greedy.rhai</code></td>
<td>Straight Dominoes</td>
<td>the action that scores most now</td>
</tr>
<tr>
<td><code>straight-defender.rhai</code></td>
<td>Straight Dominoes</td>
<td>points now, less a fifth of the most the next player could score back</td>
</tr>
<tr>
<td><code>streets-random.rhai</code></td>
<td>Streets and Avenues</td>
<td>a legal action picked from <code>view.nonce</code></td>
</tr>
<tr>
<td><code>streets-greedy.rhai</code></td>
<td>Streets and Avenues</td>
<td>the placement that closes most blocks now</td>
</tr>
<tr>
<td><code>streets-builder.rhai</code></td>
<td>Streets and Avenues</td>
<td>blocks first, then doubles and streets; discards its heaviest tile rather than pass</td>
</tr>
</tbody></table>
<p>In 600-game matches (<code>clack arena</code>, seats rotated, seeds 3 and 11), <code>straight-defender</code> won
53.5% of two-player games against <code>straight-greedy</code>, but at a four-player table with random bots
greedy does better; <code>streets-builder</code> beats <code>streets-greedy</code>, and both beat random by far. See
<code>docs/benchmarks.md</code> for the tables.</p>
<h2 id="try-a-bot-on-your-machine">Try a bot on your machine</h2>
<pre><code class="language-sh">cargo run --release -p clack -- bot test bots/straight-greedy.rhai --game straight --players 2
cargo run --release -p clack -- arena --game streets --bots bots/streets-greedy.rhai,bots/streets-builder.rhai --games 200 --seed 1
</code></pre>
<p><code>bot test</code> plays one game as seat 0 against random bots and prints every decision: the time it
took, the action, its points, what the bot printed, and any fault. <code>arena</code> plays a match and
reports wins, mean score with a 95% confidence interval, faults, mean decision time and Elo
ratings (<code>--ratings FILE</code> keeps them between matches).</p>
<h2 id="upload-it">Upload it</h2>
<p>Through <code>clack.v1.BotService</code>: <code>UploadBot</code> (name, game kind, source) returns the bot id (its name)
and a version (the first 16 hex digits of the SHA-256 of the source; the same source is the same
version). <code>ValidateBot</code> compiles it and plays a few games against the random bot. A game seat can
then name the bot and version (<code>SeatSpec.bot</code>); a game whose seats are all bots plays to the end
by itself. <code>StartMatch</code> plays bots against each other in the background and keeps each
version&#39;s rating: it answers at once with the match&#39;s id, <code>WatchMatch</code> streams the standings
(wins, win share with its 95% interval, score, faults, decision time) after every game, and
<code>ListGames</code> with the <code>match_id</code> lists its games. Each deal is played once from every seat
(duplicate deals), so the luck of the deal cancels out of the standings. A match survives a
restart of the server. <code>RunMatch</code> does the same and answers when the match is over. Every game a
match plays is stored like any other finished game, so you can replay it move by move
(<code>ReplayService</code>, or the web app&#39;s Bots page) to see where your bot went wrong.</p>
<h2 id="the-view">The view</h2>
<p>Common to both games:</p>
<table>
<thead>
<tr>
<th>field</th>
<th>type</th>
<th>meaning</th>
</tr>
</thead>
<tbody><tr>
<td><code>game</code></td>
<td>string</td>
<td><code>&quot;straight&quot;</code> or <code>&quot;streets&quot;</code></td>
</tr>
<tr>
<td><code>seat</code></td>
<td>int</td>
<td>your seat, from 0</td>
</tr>
<tr>
<td><code>hand</code></td>
<td>array of <code>[a, b]</code></td>
<td>your tiles, low half first</td>
</tr>
<tr>
<td><code>hand_sizes</code></td>
<td>array of int</td>
<td>tiles in each seat&#39;s hand</td>
</tr>
<tr>
<td><code>scores</code></td>
<td>array of int</td>
<td>each side&#39;s score (one per seat; Straight Dominoes teams: one per team)</td>
</tr>
<tr>
<td><code>history</code></td>
<td>array of records</td>
<td>every action so far: <code>seat</code>, <code>action</code> (text notation), <code>points</code></td>
</tr>
<tr>
<td><code>legal</code></td>
<td>array of records</td>
<td>the legal actions, see below</td>
</tr>
<tr>
<td><code>points</code></td>
<td>array of int</td>
<td>the points each entry of <code>legal</code> scores now, in the same order: the cheapest thing to scan</td>
</tr>
<tr>
<td><code>nonce</code></td>
<td>int</td>
<td>a number that changes every turn, for bots that want to vary (there is no random generator)</td>
</tr>
</tbody></table>
<p>Straight Dominoes adds <code>boneyard</code> (tiles you could still draw), <code>round</code>, <code>target</code>, and <code>board</code>:
<code>spinner</code> (<code>[a, b]</code> or <code>()</code> before the lead; the first tile of the round), <code>is_spinner</code>, <code>west</code>,
<code>east</code>, <code>north</code>, <code>south</code> (each an array of <code>[inner, outer]</code>, from the spinner outward; <code>outer</code> is
the open end) and <code>count</code> (the open-end count). Each <code>legal</code> entry has <code>kind</code> (<code>&quot;lead&quot;</code>,
<code>&quot;play&quot;</code>, <code>&quot;draw&quot;</code>, <code>&quot;pass&quot;</code>), <code>tile</code> (<code>[a, b]</code> or <code>()</code>), <code>arm</code> (<code>&quot;west&quot;</code>... or <code>()</code>),
<code>matched</code> (the number laid against the end), <code>points</code>, <code>count_after</code> and <code>ends_after</code> (the count
and the open end numbers after the play), and <code>text</code>.</p>
<p>Streets and Avenues adds <code>boneyard</code> (tiles left), <code>discards</code> (tiles discarded face up) and
<code>board</code>: <code>pieces</code> (each <code>tile</code>, <code>first</code> — the number on its north or west half — and <code>spot</code>) and
<code>blocks</code>. A <code>spot</code> is <code>#{kind: &quot;avenue&quot;, column, row}</code> or <code>#{kind: &quot;street&quot;, gap, half_row}</code> (see
<a href="/rules/streets#the-grid">the grid</a>). Each <code>legal</code> entry has <code>kind</code> (<code>&quot;place&quot;</code>,
<code>&quot;discard&quot;</code>, <code>&quot;pass&quot;</code>), <code>tile</code>, <code>spot</code>, <code>first</code>, <code>points</code> (blocks the placement closes) and <code>text</code>.</p>
<p>An entry of <code>legal</code> or <code>history</code>, and a Streets and Avenues piece, is a <em>record</em>: a read-only
map. Read its fields as <code>entry.points</code> or <code>entry[&quot;points&quot;]</code>; a field it does not have reads as
<code>()</code>; <code>keys()</code>, <code>values()</code>, <code>len()</code>, <code>&quot;points&quot; in entry</code>, <code>==</code> and <code>print</code> work as on a map.
A record cannot be changed (assigning to a field is an error) and <code>type_of</code> calls it <code>&quot;record&quot;</code>;
to annotate entries, copy what you need into maps of your own. The view itself and <code>board</code> are
ordinary maps.</p>
<h2 id="limits">Limits</h2>
<table>
<thead>
<tr>
<th>limit</th>
<th>value</th>
</tr>
</thead>
<tbody><tr>
<td>source size</td>
<td>64 KiB</td>
</tr>
<tr>
<td>operations per decision</td>
<td>500,000</td>
</tr>
<tr>
<td>CPU time per decision (the deciding thread&#39;s own clock)</td>
<td>100 ms</td>
</tr>
<tr>
<td>call depth / expression depth</td>
<td>32 / 64 (32 in functions)</td>
</tr>
<tr>
<td>string / array / map size</td>
<td>16 KiB / 4,096 / 1,024</td>
</tr>
<tr>
<td>variables / functions</td>
<td>256 / 64</td>
</tr>
<tr>
<td><code>print</code> and <code>debug</code> output kept per decision</td>
<td>4 KiB</td>
</tr>
<tr>
<td><code>eval</code>, <code>import</code>, <code>export</code>, modules</td>
<td>disabled</td>
</tr>
</tbody></table>
<p>A bot that errors, breaks a limit, runs past its deadline or returns something that is not an
index into <code>view.legal</code> does not stop the game: the server records a <code>BotFaulted</code> event (with a
short reason: <code>error</code>, <code>operations</code>, <code>deadline</code>, <code>limit</code>, <code>bad_answer</code>, <code>no_choose</code>) and plays the
first legal action for it. <code>GetBot</code> shows what the bot last printed.</p>
<p>A decision&#39;s budget is counted in operations as well as time. Operations are the same on every
machine (a bot has no clock and no random generator; <code>view.nonce</code> comes from the game&#39;s
history), so a decision that ran out of operations runs out again wherever it is run; only the
100 ms deadline depends on the machine. It is counted in the CPU time of the thread your decision
runs on, so a busy server (or the ladder, which plays at the lowest scheduling priority) never
faults your bot for time the operating system gave to other work.</p>
<h2 id="why-did-my-bot-do-that">Why did my bot do that?</h2>
<p>For any decision of your bot in a finished game, <code>BotService.ExplainDecision</code> (game id and the
sequence of the move&#39;s event, or of the <code>BotFaulted</code> event) runs that version again on exactly
the view it was given and answers with the view (as JSON), what it printed, what it chose (or
why it failed), the operations and time it used, what the game recorded, and whether the two
agree. Only the bot&#39;s owner may ask, and only once the game is over. In the web app, the replay
of a game shows a &quot;Why did my bot do that?&quot; button beside each decision of a bot you own.</p>
<h2 id="tips">Tips</h2>
<ul>
<li><code>for (entry, i) in view.legal</code> gives each entry with its index. A record&#39;s field is made when
it is read, so read each field once per entry; a loop over <code>view.points</code> is cheaper still when
points are all you need.</li>
<li>Keep work per decision small: a greedy decision, view included, takes about 10 µs (Straight
Dominoes) and 15 µs (Streets and Avenues) in the sandbox; the deadline is 100 ms.</li>
<li>Top-level code outside functions never runs; put everything in functions.</li>
</ul>
`;export{e as default};