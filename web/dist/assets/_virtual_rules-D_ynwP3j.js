var e={straight:`<h1>Straight Dominoes</h1>
<p>Straight Dominoes is the classic &quot;All Fives&quot; block-and-draw game played with a <strong>spinner</strong>: the
first tile of every round can be built on in four directions, and you score whenever the open
ends of the layout add up to a multiple of five. This page is the complete set of rules Clack
plays, written for players and for bot authors. It says exactly what the engine
(<code>crates/clack-rules/src/straight.rs</code>) does, including the cases the traditional rules leave open.</p>
<p>The other game on the server is <a href="/rules/streets">Streets and Avenues</a>.</p>
<ul>
<li><a href="#at-a-glance">At a glance</a></li>
<li><a href="#rule-options">Rule options</a></li>
<li><a href="#the-set-the-seats-and-the-sides">The set, the seats and the sides</a></li>
<li><a href="#who-leads-the-first-round">Who leads the first round</a></li>
<li><a href="#the-deal-and-the-boneyard">The deal and the boneyard</a></li>
<li><a href="#the-layout-spinner-and-arms">The layout: spinner and arms</a></li>
<li><a href="#your-turn-play-draw-or-pass">Your turn: play, draw or pass</a></li>
<li><a href="#scoring-the-open-ends">Scoring the open ends</a></li>
<li><a href="#the-end-of-a-round">The end of a round</a></li>
<li><a href="#the-end-of-the-game">The end of the game</a></li>
<li><a href="#what-each-player-can-see">What each player can see</a></li>
<li><a href="#writing-actions-down">Writing actions down</a></li>
<li><a href="#refused-actions">Refused actions</a></li>
<li><a href="#edge-cases-the-engine-settles">Edge cases the engine settles</a></li>
<li><a href="#worked-examples">Worked examples</a></li>
</ul>
<h2 id="at-a-glance">At a glance</h2>
<table>
<thead>
<tr>
<th></th>
<th></th>
</tr>
</thead>
<tbody><tr>
<td>Set</td>
<td>double-six, 28 tiles</td>
</tr>
<tr>
<td>Players</td>
<td>2, 3 or 4; with 4, optionally two teams of partners</td>
</tr>
<tr>
<td>Hand</td>
<td>7 tiles each; the rest is the boneyard (empty with 4 players)</td>
</tr>
<tr>
<td>Goal</td>
<td>first side to 250 points</td>
</tr>
<tr>
<td>Score during play</td>
<td>the open-end count, whenever it is a multiple of 5</td>
</tr>
<tr>
<td>Score at the end of a round</td>
<td>the opponents&#39; pips (less your own, by default), rounded to the nearest 5</td>
</tr>
</tbody></table>
<h2 id="rule-options">Rule options</h2>
<p>Every point on which tables commonly differ is an option. A game records all of its options
when it is created, so a replay always uses the rules the game was played with. The names below
are the fields of <code>StraightOptions</code> in <code>proto/clack/v1/types.proto</code> (in the gRPC JSON mapping they
are written in camelCase: <code>boneyardReserve</code>, <code>spinnerSidesOpenImmediately</code>, ...). A field left
unset takes the default.</p>
<table>
<thead>
<tr>
<th>option</th>
<th>values</th>
<th>default</th>
<th>what it does</th>
</tr>
</thead>
<tbody><tr>
<td><code>players</code></td>
<td>2, 3, 4</td>
<td><strong>4</strong></td>
<td>seats at the table</td>
</tr>
<tr>
<td><code>teams</code></td>
<td>true / false</td>
<td>false</td>
<td>seats 0 and 2 play against seats 1 and 3; needs <code>players = 4</code></td>
</tr>
<tr>
<td><code>boneyard_reserve</code></td>
<td>0 up to the boneyard&#39;s size</td>
<td>0</td>
<td>that many boneyard tiles can never be drawn</td>
</tr>
<tr>
<td><code>spinner</code></td>
<td><code>SPINNER_RULE_FIRST_TILE</code>, <code>SPINNER_RULE_FIRST_DOUBLE</code>, <code>SPINNER_RULE_NONE</code></td>
<td><code>FIRST_TILE</code></td>
<td>what the spinner is, see <a href="#the-spinner-option">below</a></td>
</tr>
<tr>
<td><code>spinner_sides_open_immediately</code></td>
<td>true / false</td>
<td>false</td>
<td>north and south may be played as soon as the spinner is down, instead of after west and east each hold a tile</td>
</tr>
<tr>
<td><code>may_draw_when_able</code></td>
<td>true / false</td>
<td>false</td>
<td>a player who holds a playable tile may still draw instead of playing</td>
</tr>
<tr>
<td><code>blocked_scoring</code></td>
<td><code>BLOCKED_SCORING_NET</code>, <code>BLOCKED_SCORING_OPPONENTS</code></td>
<td><code>NET</code></td>
<td>how a round&#39;s winner is paid, see <a href="#the-round-score">round score</a></td>
</tr>
<tr>
<td><code>target</code></td>
<td>1 or more</td>
<td>250</td>
<td>the score that ends the game</td>
</tr>
<tr>
<td><code>finish_round_at_target</code></td>
<td>true / false</td>
<td>false</td>
<td>when a side reaches the target during a round, play that round out instead of stopping at once</td>
</tr>
</tbody></table>
<p><code>UNSPECIFIED</code> enum values also mean &quot;the default&quot;. Options that describe no playable game are
refused when the game is created:</p>
<ul>
<li><code>players</code> outside 2–4: <em>&quot;players must be 2, 3 or 4&quot;</em>;</li>
<li><code>teams</code> with fewer than 4 players: <em>&quot;teams need exactly 4 players&quot;</em>;</li>
<li>a <code>boneyard_reserve</code> larger than the boneyard left after the deal (14 with 2 players, 7 with 3,
0 with 4);</li>
<li><code>target</code> 0.</li>
</ul>
<h2 id="the-set-the-seats-and-the-sides">The set, the seats and the sides</h2>
<p>The game uses the <strong>double-six</strong> set: the 28 tiles <code>a-b</code> with <code>0 ≤ a ≤ b ≤ 6</code>, each combination
once. The <strong>pips</strong> of a tile are <code>a + b</code>; the whole set holds 168 pips.</p>
<p>Seats are numbered from 0 in playing order; play always passes to the next seat (seat 3 is
followed by seat 0).</p>
<p>Scores are kept per <strong>side</strong>. Without teams every player is a side of their own. With <code>teams</code>,
seats 0 and 2 form side 0 and seats 1 and 3 form side 1; everything either partner scores goes
to the side.</p>
<h2 id="who-leads-the-first-round">Who leads the first round</h2>
<p>Before the first deal, every seat draws one tile from the shuffled set. The best tile leads:</p>
<ol>
<li>any double beats any non-double (so even <code>0-0</code> beats <code>6-5</code>), and a higher double beats a lower one;</li>
<li>between non-doubles, the higher pip total wins;</li>
<li>between equal totals, the tile with the higher high half wins (<code>3-6</code> beats <code>4-5</code>).</li>
</ol>
<p>Two different tiles never rank equal, so there is always one leader. The drawn tiles go back into
the set and everything is shuffled again for the deal. This draw happens only once per game;
later rounds are led by the previous round&#39;s winner (see
<a href="#the-next-round">the next round</a>).</p>
<h2 id="the-deal-and-the-boneyard">The deal and the boneyard</h2>
<p>Each player receives 7 tiles, seen only by their owner. The tiles left over are the
<strong>boneyard</strong>: 14 tiles with 2 players, 7 with 3, none with 4.</p>
<p>With <code>boneyard_reserve = n</code>, a player may draw only while the boneyard holds more than <code>n</code>
tiles, so <code>n</code> tiles always stay in it. Which tiles stay is decided by chance like every draw
(each draw takes a random tile of the boneyard). The tiles left at the end belong to nobody and
are never scored.</p>
<p>Every round is dealt afresh from all 28 tiles.</p>
<h2 id="the-layout-spinner-and-arms">The layout: spinner and arms</h2>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNDUwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjQ1MCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5BIFN0cmFpZ2h0IERvbWlub2VzIGxheW91dDogc3Bpbm5lciAzLTUgd2l0aCBpdHMgZm91ciBhcm1zIGFuZCBhbiBvcGVuLWVuZCBjb3VudCBvZiAxMzwvdGl0bGU+CiAgPGRlZnM+CiAgICA8c3R5bGU+CiAgICAgIC50IHsgZmlsbDogI2ZmZmRmNjsgc3Ryb2tlOiAjMmIyYjJiOyBzdHJva2Utd2lkdGg6IDI7IH0KICAgICAgLnNwIHsgZmlsbDogI2ZmZTZhMDsgc3Ryb2tlOiAjMmIyYjJiOyBzdHJva2Utd2lkdGg6IDIuNTsgfQogICAgICAuZCB7IHN0cm9rZTogIzJiMmIyYjsgc3Ryb2tlLXdpZHRoOiAxLjU7IH0KICAgICAgLnBpcCB7IGZpbGw6ICMxZDFkMWQ7IH0KICAgICAgLmdob3N0IHsgZmlsbDogbm9uZTsgc3Ryb2tlOiAjNmI4ZmI1OyBzdHJva2Utd2lkdGg6IDEuNTsgc3Ryb2tlLWRhc2hhcnJheTogNSA0OyB9CiAgICAgIC5sYmwgeyBmb250LXNpemU6IDE1cHg7IGZpbGw6ICMzMzM7IH0KICAgICAgLmFybSB7IGZvbnQtc2l6ZTogMTRweDsgZmlsbDogIzU1NTsgZm9udC1zdHlsZTogaXRhbGljOyB9CiAgICAgIC5iYWRnZSB7IGZpbGw6ICMyZjZmYjA7IH0KICAgICAgLmJ0IHsgZm9udC1zaXplOiAxNnB4OyBmb250LXdlaWdodDogYm9sZDsgZmlsbDogI2ZmZjsgfQogICAgICAuc3VtIHsgZm9udC1zaXplOiAxNnB4OyBmaWxsOiAjMjIyOyB9CiAgICA8L3N0eWxlPgogICAgPCEtLSBPbmUgaGFsZiBvZiBhIGRvbWlubywgZHJhd24gaW4gYSA0MCB4IDQwIHNxdWFyZS4gLS0+CiAgICA8ZyBpZD0icDEiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOCIvPjwvZz4KICAgIDxnIGlkPSJwMiIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy44Ii8+PC9nPgogICAgPGcgaWQ9InAzIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjgiLz48L2c+CiAgICA8ZyBpZD0icDUiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOCIvPjwvZz4KICAgIDxtYXJrZXIgaWQ9ImFycm93IiB2aWV3Qm94PSIwIDAgMTAgMTAiIHJlZlg9IjkiIHJlZlk9IjUiIG1hcmtlcldpZHRoPSI3IiBtYXJrZXJIZWlnaHQ9IjciIG9yaWVudD0iYXV0byI+CiAgICAgIDxwYXRoIGQ9Ik0wLDAgTDEwLDUgTDAsMTAgeiIgZmlsbD0iIzg4OCIvPgogICAgPC9tYXJrZXI+CiAgPC9kZWZzPgoKICA8dGV4dCB4PSIzMjAiIHk9IjMwIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0ibGJsIiBmb250LXdlaWdodD0iYm9sZCI+TGVhZCAzLTUsIHRoZW4gMS0zIHdlc3QsIDUtMiBlYXN0LCA1LTUgbm9ydGggYWdhaW5zdCB0aGUgNTwvdGV4dD4KCiAgPCEtLSBkaXJlY3Rpb24gYXJyb3dzIC0tPgogIDxsaW5lIHgxPSIxNzAiIHkxPSIyMjAiIHgyPSI2MCIgeTI9IjIyMCIgc3Ryb2tlPSIjODg4IiBzdHJva2Utd2lkdGg9IjIiIG1hcmtlci1lbmQ9InVybCgjYXJyb3cpIi8+CiAgPHRleHQgeD0iNjAiIHk9IjIwOCIgY2xhc3M9ImFybSI+d2VzdDwvdGV4dD4KICA8bGluZSB4MT0iNDkwIiB5MT0iMjIwIiB4Mj0iNjAwIiB5Mj0iMjIwIiBzdHJva2U9IiM4ODgiIHN0cm9rZS13aWR0aD0iMiIgbWFya2VyLWVuZD0idXJsKCNhcnJvdykiLz4KICA8dGV4dCB4PSI2MDAiIHk9IjIwOCIgdGV4dC1hbmNob3I9ImVuZCIgY2xhc3M9ImFybSI+ZWFzdDwvdGV4dD4KICA8bGluZSB4MT0iMzQwIiB5MT0iMTEyIiB4Mj0iMzQwIiB5Mj0iNTgiIHN0cm9rZT0iIzg4OCIgc3Ryb2tlLXdpZHRoPSIyIiBtYXJrZXItZW5kPSJ1cmwoI2Fycm93KSIvPgogIDx0ZXh0IHg9IjM1MCIgeT0iNzIiIGNsYXNzPSJhcm0iPm5vcnRoPC90ZXh0PgoKICA8IS0tIHdlc3QgYXJtOiAxLTMsIGl0cyAzIGFnYWluc3QgdGhlIHNwaW5uZXIncyAzIC0tPgogIDxyZWN0IHg9IjIwMCIgeT0iMjAwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI2IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSIyNDAiIHkxPSIyMDUiIHgyPSIyNDAiIHkyPSIyMzUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDEiIHg9IjIwMCIgeT0iMjAwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDMiIHg9IjI0MCIgeT0iMjAwIi8+CgogIDwhLS0gdGhlIHNwaW5uZXIgMy01OiBsb3cgaGFsZiB3ZXN0LCBoaWdoIGhhbGYgZWFzdCAtLT4KICA8cmVjdCB4PSIyODAiIHk9IjIwMCIgd2lkdGg9IjgwIiBoZWlnaHQ9IjQwIiByeD0iNiIgY2xhc3M9InNwIi8+CiAgPGxpbmUgeDE9IjMyMCIgeTE9IjIwNSIgeDI9IjMyMCIgeTI9IjIzNSIgY2xhc3M9ImQiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwMyIgeD0iMjgwIiB5PSIyMDAiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNSIgeD0iMzIwIiB5PSIyMDAiLz4KCiAgPCEtLSBlYXN0IGFybTogNS0yIC0tPgogIDxyZWN0IHg9IjM2MCIgeT0iMjAwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI2IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSI0MDAiIHkxPSIyMDUiIHgyPSI0MDAiIHkyPSIyMzUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDUiIHg9IjM2MCIgeT0iMjAwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDIiIHg9IjQwMCIgeT0iMjAwIi8+CgogIDwhLS0gbm9ydGggYXJtOiA1LTUgY3Jvc3N3aXNlLCBhZ2FpbnN0IHRoZSBzcGlubmVyJ3MgNSBoYWxmIC0tPgogIDxyZWN0IHg9IjMwMCIgeT0iMTYwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI2IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSIzNDAiIHkxPSIxNjUiIHgyPSIzNDAiIHkyPSIxOTUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDUiIHg9IjMwMCIgeT0iMTYwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDUiIHg9IjM0MCIgeT0iMTYwIi8+CgogIDwhLS0gc291dGggYXJtOiBlbXB0eSBidXQgb3BlbjsgYSB0aWxlIG1heSBnbyBhZ2FpbnN0IGVpdGhlciBoYWxmIC0tPgogIDxyZWN0IHg9IjI4MCIgeT0iMjUwIiB3aWR0aD0iNDAiIGhlaWdodD0iODAiIHJ4PSI2IiBjbGFzcz0iZ2hvc3QiLz4KICA8cmVjdCB4PSIzMjAiIHk9IjI1MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNiIgY2xhc3M9Imdob3N0Ii8+CiAgPHRleHQgeD0iMzAwIiB5PSIyOTUiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGZvbnQtc2l6ZT0iMTUiIGZpbGw9IiM2YjhmYjUiPjM/PC90ZXh0PgogIDx0ZXh0IHg9IjM0MCIgeT0iMjk1IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBmb250LXNpemU9IjE1IiBmaWxsPSIjNmI4ZmI1Ij41PzwvdGV4dD4KICA8dGV4dCB4PSIzNzIiIHk9IjI4MiIgY2xhc3M9ImFybSI+c291dGg6IGVtcHR5LCBvcGVuOzwvdGV4dD4KICA8dGV4dCB4PSIzNzIiIHk9IjMwMCIgY2xhc3M9ImFybSI+dGFrZXMgYSAzIG9yIGEgNTsgYWRkcyAwPC90ZXh0PgoKICA8IS0tIG9wZW4tZW5kIHZhbHVlcyAtLT4KICA8Y2lyY2xlIGN4PSIxNzgiIGN5PSIyMjAiIHI9IjE1IiBjbGFzcz0iYmFkZ2UiLz4KICA8dGV4dCB4PSIxNzgiIHk9IjIyNiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImJ0Ij4xPC90ZXh0PgogIDxjaXJjbGUgY3g9IjQ2MiIgY3k9IjIyMCIgcj0iMTUiIGNsYXNzPSJiYWRnZSIvPgogIDx0ZXh0IHg9IjQ2MiIgeT0iMjI2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iYnQiPjI8L3RleHQ+CiAgPGNpcmNsZSBjeD0iMzQwIiBjeT0iMTM0IiByPSIxNyIgY2xhc3M9ImJhZGdlIi8+CiAgPHRleHQgeD0iMzQwIiB5PSIxNDAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJidCI+MTA8L3RleHQ+CgogIDx0ZXh0IHg9IjI0MCIgeT0iMjYyIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iYXJtIj53ZXN0IGFybTwvdGV4dD4KICA8dGV4dCB4PSI0MDAiIHk9IjI2MiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImFybSI+ZWFzdCBhcm08L3RleHQ+CiAgPHRleHQgeD0iMjkwIiB5PSIxNjYiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJhcm0iPm5vcnRoIGFybTo8L3RleHQ+CiAgPHRleHQgeD0iMjkwIiB5PSIxODQiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJhcm0iPmNyb3Nzd2lzZSBkb3VibGU8L3RleHQ+CiAgPHRleHQgeD0iMjAwIiB5PSIzMDAiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJhcm0iPnNwaW5uZXIgKGdvbGQpOjwvdGV4dD4KICA8dGV4dCB4PSIyMDAiIHk9IjMxOCIgdGV4dC1hbmNob3I9ImVuZCIgY2xhc3M9ImFybSI+d2VzdCBhbmQgZWFzdCB0YWtlbiw8L3RleHQ+CiAgPHRleHQgeD0iMjAwIiB5PSIzMzYiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJhcm0iPnNvIGl0IGFkZHMgMDwvdGV4dD4KCiAgPCEtLSB0aGUgY291bnQgLS0+CiAgPHJlY3QgeD0iNDAiIHk9IjM2MCIgd2lkdGg9IjU2MCIgaGVpZ2h0PSI3MCIgcng9IjgiIGZpbGw9IiNlZWYzZjkiIHN0cm9rZT0iI2M1ZDRlNiIvPgogIDx0ZXh0IHg9IjMyMCIgeT0iMzg4IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0ic3VtIj5jb3VudCA9IDEgKHdlc3QpICsgMiAoZWFzdCkgKyA1ICsgNSAobm9ydGgpICsgMCAoc3Bpbm5lcikgPSAxMzwvdGV4dD4KICA8dGV4dCB4PSIzMjAiIHk9IjQxNCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9InN1bSI+MTMgaXMgbm90IGEgbXVsdGlwbGUgb2YgNTogdGhlIHBsYXkgb2YgNS01IHNjb3JlcyBub3RoaW5nPC90ZXh0Pgo8L3N2Zz4K" alt="A spinner with four arms and the open-end count"></p>
<p>The leader of a round lays <strong>any tile</strong> from their hand. That first tile is the <strong>spinner</strong>
(under the default <code>spinner</code> option). Tiles are then built outward from it along four
<strong>arms</strong>: <strong>west</strong>, <strong>east</strong>, <strong>north</strong> and <strong>south</strong>. Each arm is a line of tiles laid end to
end, same number against same number: the number a new tile is laid against is the number it
<em>matches</em>; its other number becomes the arm&#39;s new open end.</p>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNDAwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjQwMCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5XaGVyZSB0aGUgZm91ciBhcm1zIG9mIGEgc3Bpbm5lciBzdGFydDogYSBub24tZG91YmxlIHNwaW5uZXIgMy01IGFuZCBhIGRvdWJsZSBzcGlubmVyIDYtNjwvdGl0bGU+CiAgPGRlZnM+CiAgICA8c3R5bGU+CiAgICAgIC5zcCB7IGZpbGw6ICNmZmU2YTA7IHN0cm9rZTogIzJiMmIyYjsgc3Ryb2tlLXdpZHRoOiAyLjU7IH0KICAgICAgLmQgeyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMS41OyB9CiAgICAgIC5waXAgeyBmaWxsOiAjMWQxZDFkOyB9CiAgICAgIC5naG9zdCB7IGZpbGw6ICNmM2Y3ZmI7IHN0cm9rZTogIzZiOGZiNTsgc3Ryb2tlLXdpZHRoOiAxLjU7IHN0cm9rZS1kYXNoYXJyYXk6IDUgNDsgfQogICAgICAuZ24geyBmb250LXNpemU6IDE3cHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjMmY2ZmIwOyB9CiAgICAgIC5oZWFkIHsgZm9udC1zaXplOiAxNnB4OyBmb250LXdlaWdodDogYm9sZDsgZmlsbDogIzIyMjsgfQogICAgICAubGJsIHsgZm9udC1zaXplOiAxMy41cHg7IGZpbGw6ICMyZjZmYjA7IGZvbnQtZmFtaWx5OiAiRGVqYVZ1IFNhbnMgTW9ubyIsIE1lbmxvLCBDb25zb2xhcywgbW9ub3NwYWNlOyB9CiAgICAgIC5ub3RlIHsgZm9udC1zaXplOiAxNHB4OyBmaWxsOiAjNDQ0OyB9CiAgICA8L3N0eWxlPgogICAgPGcgaWQ9InAzIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjgiLz48L2c+CiAgICA8ZyBpZD0icDUiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOCIvPjwvZz4KICAgIDwhLS0gc2l4IG9uIGEgZG9taW5vIHN0YW5kaW5nIG5vcnRoLXNvdXRoOiB0d28gY29sdW1ucyBvZiB0aHJlZSAtLT4KICAgIDxnIGlkPSJwNnYiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjEyIiBjeT0iMTAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjEyIiBjeT0iMjAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjEyIiBjeT0iMzAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMTAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMjAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMzAiIHI9IjMuNiIvPjwvZz4KICA8L2RlZnM+CgogIDxsaW5lIHgxPSIzMjAiIHkxPSI1MCIgeDI9IjMyMCIgeTI9IjMyMCIgc3Ryb2tlPSIjZGRkIiBzdHJva2Utd2lkdGg9IjEuNSIvPgoKICA8IS0tID09PT09IFBhbmVsIEE6IG5vbi1kb3VibGUgc3Bpbm5lciAzLTUgPT09PT0gLS0+CiAgPHRleHQgeD0iMTYwIiB5PSIzMCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImhlYWQiPlNwaW5uZXIgMy01PC90ZXh0PgoKICA8IS0tIHdlc3Q6IGEgdGlsZSBtYXRjaGluZyAzIC0tPgogIDxyZWN0IHg9IjQwIiB5PSIxNzAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJnaG9zdCIvPgogIDx0ZXh0IHg9IjEwMCIgeT0iMTk2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZ24iPjM8L3RleHQ+CiAgPHRleHQgeD0iODAiIHk9IjE2MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImxibCI+d2VzdEAzPC90ZXh0PgogIDwhLS0gZWFzdDogYSB0aWxlIG1hdGNoaW5nIDUgLS0+CiAgPHJlY3QgeD0iMjAwIiB5PSIxNzAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJnaG9zdCIvPgogIDx0ZXh0IHg9IjIyMCIgeT0iMTk2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZ24iPjU8L3RleHQ+CiAgPHRleHQgeD0iMjQwIiB5PSIxNjAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJsYmwiPmVhc3RANTwvdGV4dD4KICA8IS0tIG5vcnRoOiBhZ2FpbnN0IGVpdGhlciBoYWxmIC0tPgogIDxyZWN0IHg9IjEyMCIgeT0iOTAiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjYiIGNsYXNzPSJnaG9zdCIvPgogIDx0ZXh0IHg9IjE0MCIgeT0iMTU2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZ24iPjM8L3RleHQ+CiAgPHJlY3QgeD0iMTYwIiB5PSI5MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNiIgY2xhc3M9Imdob3N0Ii8+CiAgPHRleHQgeD0iMTgwIiB5PSIxNTYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJnbiI+NTwvdGV4dD4KICA8dGV4dCB4PSIxMTQiIHk9IjExMCIgdGV4dC1hbmNob3I9ImVuZCIgY2xhc3M9ImxibCI+bm9ydGhAMzwvdGV4dD4KICA8dGV4dCB4PSIyMDYiIHk9IjExMCIgY2xhc3M9ImxibCI+bm9ydGhANTwvdGV4dD4KICA8IS0tIHNvdXRoOiBhZ2FpbnN0IGVpdGhlciBoYWxmIC0tPgogIDxyZWN0IHg9IjEyMCIgeT0iMjEwIiB3aWR0aD0iNDAiIGhlaWdodD0iODAiIHJ4PSI2IiBjbGFzcz0iZ2hvc3QiLz4KICA8dGV4dCB4PSIxNDAiIHk9IjIzNiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImduIj4zPC90ZXh0PgogIDxyZWN0IHg9IjE2MCIgeT0iMjEwIiB3aWR0aD0iNDAiIGhlaWdodD0iODAiIHJ4PSI2IiBjbGFzcz0iZ2hvc3QiLz4KICA8dGV4dCB4PSIxODAiIHk9IjIzNiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImduIj41PC90ZXh0PgogIDx0ZXh0IHg9IjExNCIgeT0iMjgwIiB0ZXh0LWFuY2hvcj0iZW5kIiBjbGFzcz0ibGJsIj5zb3V0aEAzPC90ZXh0PgogIDx0ZXh0IHg9IjIwNiIgeT0iMjgwIiBjbGFzcz0ibGJsIj5zb3V0aEA1PC90ZXh0PgogIDwhLS0gdGhlIHNwaW5uZXI6IGxvdyBoYWxmIHdlc3QgLS0+CiAgPHJlY3QgeD0iMTIwIiB5PSIxNzAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJzcCIvPgogIDxsaW5lIHgxPSIxNjAiIHkxPSIxNzUiIHgyPSIxNjAiIHkyPSIyMDUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDMiIHg9IjEyMCIgeT0iMTcwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDUiIHg9IjE2MCIgeT0iMTcwIi8+CiAgPHRleHQgeD0iMTYwIiB5PSIzMTgiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJub3RlIj5sb3cgaGFsZiB3ZXN0LCBoaWdoIGhhbGYgZWFzdDs8L3RleHQ+CiAgPHRleHQgeD0iMTYwIiB5PSIzMzYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJub3RlIj5ub3J0aCBhbmQgc291dGg6IHRoZSBwbGF5ZXIgcGlja3MgYSBoYWxmPC90ZXh0PgoKICA8IS0tID09PT09IFBhbmVsIEI6IGRvdWJsZSBzcGlubmVyIDYtNiA9PT09PSAtLT4KICA8dGV4dCB4PSI0ODAiIHk9IjMwIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+U3Bpbm5lciA2LTY8L3RleHQ+CiAgPHJlY3QgeD0iMzgwIiB5PSIxNzAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJnaG9zdCIvPgogIDx0ZXh0IHg9IjQ0MCIgeT0iMTk2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZ24iPjY8L3RleHQ+CiAgPHRleHQgeD0iNDEwIiB5PSIxNjAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJsYmwiPndlc3RANjwvdGV4dD4KICA8cmVjdCB4PSI1MDAiIHk9IjE3MCIgd2lkdGg9IjgwIiBoZWlnaHQ9IjQwIiByeD0iNiIgY2xhc3M9Imdob3N0Ii8+CiAgPHRleHQgeD0iNTIwIiB5PSIxOTYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJnbiI+NjwvdGV4dD4KICA8dGV4dCB4PSI1NTAiIHk9IjE2MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImxibCI+ZWFzdEA2PC90ZXh0PgogIDxyZWN0IHg9IjQ2MCIgeT0iNzAiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjYiIGNsYXNzPSJnaG9zdCIvPgogIDx0ZXh0IHg9IjQ4MCIgeT0iMTM2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZ24iPjY8L3RleHQ+CiAgPHRleHQgeD0iNTA2IiB5PSI5MCIgY2xhc3M9ImxibCI+bm9ydGhANjwvdGV4dD4KICA8cmVjdCB4PSI0NjAiIHk9IjIzMCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNiIgY2xhc3M9Imdob3N0Ii8+CiAgPHRleHQgeD0iNDgwIiB5PSIyNTYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJnbiI+NjwvdGV4dD4KICA8dGV4dCB4PSI1MDYiIHk9IjMwMCIgY2xhc3M9ImxibCI+c291dGhANjwvdGV4dD4KICA8IS0tIHRoZSBkb3VibGUgc3Bpbm5lciwgZHJhd24gY3Jvc3N3aXNlIC0tPgogIDxyZWN0IHg9IjQ2MCIgeT0iMTUwIiB3aWR0aD0iNDAiIGhlaWdodD0iODAiIHJ4PSI2IiBjbGFzcz0ic3AiLz4KICA8bGluZSB4MT0iNDY1IiB5MT0iMTkwIiB4Mj0iNDk1IiB5Mj0iMTkwIiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A2diIgeD0iNDYwIiB5PSIxNTAiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNnYiIHg9IjQ2MCIgeT0iMTkwIi8+CiAgPHRleHQgeD0iNDgwIiB5PSIzMzYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJub3RlIj5ldmVyeSBhcm0gc3RhcnRzIHdpdGggYSA2PC90ZXh0PgoKICA8cmVjdCB4PSIyMCIgeT0iMzUyIiB3aWR0aD0iNjAwIiBoZWlnaHQ9IjM4IiByeD0iOCIgZmlsbD0iI2ZkZjNlMSIgc3Ryb2tlPSIjZWNkM2E0Ii8+CiAgPHRleHQgeD0iMzIwIiB5PSIzNzYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJub3RlIj5Ob3J0aCBhbmQgc291dGggb3BlbiBvbmx5IG9uY2Ugd2VzdCBhbmQgZWFzdCBlYWNoIGhvbGQgYSB0aWxlCiAgPC90ZXh0Pgo8L3N2Zz4K" alt="Where each arm starts, for a non-double and a double spinner"></p>
<p><strong>Where the arms start.</strong></p>
<ul>
<li>A non-double spinner <code>a-b</code> (with <code>a &lt; b</code>) lies with its low half <code>a</code> facing west and its high
half <code>b</code> facing east. The west arm starts by matching <code>a</code>, the east arm by matching <code>b</code>.</li>
<li>Its north and south arms start against its long side. A tile starting north or south is laid
against <em>one half</em> of the spinner and must match that half: it may match <code>a</code> or <code>b</code>, and the
player says which (<code>north@3</code> or <code>north@5</code> on a <code>3-5</code> spinner, see
<a href="#writing-actions-down">notation</a>).</li>
<li>A double spinner <code>d-d</code> starts all four arms with <code>d</code>.</li>
<li><strong>North and south open only once west and east each hold at least one tile.</strong> Until then a tile
can go only west or east. The option <code>spinner_sides_open_immediately</code> opens north and south as
soon as the spinner is down.</li>
</ul>
<p><strong>Doubles on an arm.</strong> Any later double is laid crosswise across the end of its arm. It is
<em>not</em> a spinner: its arm simply continues from it in the same direction, matching its number.
While a crosswise double is the last tile of its arm it shows its number twice in the count.</p>
<h3 id="the-spinner-option">The spinner option</h3>
<table>
<thead>
<tr>
<th><code>spinner</code></th>
<th>which tile is the spinner</th>
</tr>
</thead>
<tbody><tr>
<td><code>SPINNER_RULE_FIRST_TILE</code> (default)</td>
<td>the spinner, double or not</td>
</tr>
<tr>
<td><code>SPINNER_RULE_FIRST_DOUBLE</code></td>
<td>the first <strong>double</strong> played is the spinner. If the lead is a double, it is the spinner at once. Otherwise the layout is a plain line (west and east only) until a double is laid on one of its ends; that double then becomes the spinner, and the whole line played so far becomes its arm on the far side</td>
</tr>
<tr>
<td><code>SPINNER_RULE_NONE</code></td>
<td>there is no spinner: the layout is a plain line with two ends, west and east, for the whole round (the Muggins layout)</td>
</tr>
</tbody></table>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNDMwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjQzMCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5TcGlubmVyIHJ1bGUgZmlyc3RfZG91YmxlOiBhIDQtNCBsYWlkIG9uIHRoZSBlYXN0IGVuZCBvZiB0aGUgbGluZSAxLTIsIDItNCBiZWNvbWVzIHRoZSBzcGlubmVyPC90aXRsZT4KICA8ZGVmcz4KICAgIDxzdHlsZT4KICAgICAgLnQgeyBmaWxsOiAjZmZmZGY2OyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMjsgfQogICAgICAubmV3IHsgZmlsbDogI2UzZjFlNjsgc3Ryb2tlOiAjMmIyYjJiOyBzdHJva2Utd2lkdGg6IDI7IH0KICAgICAgLnNwIHsgZmlsbDogI2ZmZTZhMDsgc3Ryb2tlOiAjMmIyYjJiOyBzdHJva2Utd2lkdGg6IDIuNTsgfQogICAgICAuZCB7IHN0cm9rZTogIzJiMmIyYjsgc3Ryb2tlLXdpZHRoOiAxLjU7IH0KICAgICAgLnBpcCB7IGZpbGw6ICMxZDFkMWQ7IH0KICAgICAgLmdob3N0IHsgZmlsbDogI2YzZjdmYjsgc3Ryb2tlOiAjNmI4ZmI1OyBzdHJva2Utd2lkdGg6IDEuNTsgc3Ryb2tlLWRhc2hhcnJheTogNSA0OyB9CiAgICAgIC5jbG9zZWQgeyBmaWxsOiAjZjFmMWYxOyBzdHJva2U6ICNhYWE7IHN0cm9rZS13aWR0aDogMS41OyBzdHJva2UtZGFzaGFycmF5OiAzIDQ7IH0KICAgICAgLmhlYWQgeyBmb250LXNpemU6IDE2cHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjMjIyOyB9CiAgICAgIC5leCB7IGZvbnQtc2l6ZTogMTRweDsgZmlsbDogIzQ0NDsgfQogICAgICAudiB7IGZvbnQtc2l6ZTogMTVweDsgZm9udC13ZWlnaHQ6IGJvbGQ7IGZpbGw6ICMyZjZmYjA7IH0KICAgICAgLm1vbm8geyBmb250LXNpemU6IDE0cHg7IGZpbGw6ICM0NDQ7IGZvbnQtZmFtaWx5OiAiRGVqYVZ1IFNhbnMgTW9ubyIsIE1lbmxvLCBDb25zb2xhcywgbW9ub3NwYWNlOyB9CiAgICA8L3N0eWxlPgogICAgPGcgaWQ9InAxIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSIzLjgiLz48L2c+CiAgICA8ZyBpZD0icDIiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOCIvPjwvZz4KICAgIDxnIGlkPSJwNCIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy44Ii8+PC9nPgogICAgPG1hcmtlciBpZD0iYXJyb3ciIHZpZXdCb3g9IjAgMCAxMCAxMCIgcmVmWD0iOSIgcmVmWT0iNSIgbWFya2VyV2lkdGg9IjciIG1hcmtlckhlaWdodD0iNyIgb3JpZW50PSJhdXRvIj4KICAgICAgPHBhdGggZD0iTTAsMCBMMTAsNSBMMCwxMCB6IiBmaWxsPSIjODg4Ii8+CiAgICA8L21hcmtlcj4KICA8L2RlZnM+CgogIDwhLS0gQmVmb3JlIC0tPgogIDx0ZXh0IHg9IjIwIiB5PSIzMCIgY2xhc3M9ImhlYWQiPkJlZm9yZTogYSBwbGFpbiBsaW5lIChsZWFkIDItNCwgdGhlbiAxLTIgd2VzdCksIGFuZCA0LTQgbGFpZCBlYXN0PC90ZXh0PgogIDxyZWN0IHg9IjEwMCIgeT0iODAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJ0Ii8+CiAgPGxpbmUgeDE9IjE0MCIgeTE9Ijg1IiB4Mj0iMTQwIiB5Mj0iMTE1IiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3AxIiB4PSIxMDAiIHk9IjgwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDIiIHg9IjE0MCIgeT0iODAiLz4KICA8cmVjdCB4PSIxODAiIHk9IjgwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI2IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSIyMjAiIHkxPSI4NSIgeDI9IjIyMCIgeTI9IjExNSIgY2xhc3M9ImQiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwMiIgeD0iMTgwIiB5PSI4MCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A0IiB4PSIyMjAiIHk9IjgwIi8+CiAgPHJlY3QgeD0iMjYwIiB5PSI2MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNiIgY2xhc3M9Im5ldyIvPgogIDxsaW5lIHgxPSIyNjUiIHkxPSIxMDAiIHgyPSIyOTUiIHkyPSIxMDAiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDQiIHg9IjI2MCIgeT0iNjAiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNCIgeD0iMjYwIiB5PSIxMDAiLz4KICA8dGV4dCB4PSIyMjAiIHk9IjE2MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij5maXJzdCB0aWxlIChub3QgYSBzcGlubmVyKTwvdGV4dD4KICA8dGV4dCB4PSIyODAiIHk9IjUyIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZXgiPm5ldzwvdGV4dD4KICA8dGV4dCB4PSI5MiIgeT0iMTA2IiB0ZXh0LWFuY2hvcj0iZW5kIiBjbGFzcz0idiI+MTwvdGV4dD4KICA8dGV4dCB4PSIzMDgiIHk9IjEwNiIgY2xhc3M9InYiPjQgKyA0PC90ZXh0PgogIDx0ZXh0IHg9IjM4MCIgeT0iOTYiIGNsYXNzPSJleCI+Y291bnQgMSArIDggPSA5PC90ZXh0PgoKICA8bGluZSB4MT0iMzIwIiB5MT0iMTc4IiB4Mj0iMzIwIiB5Mj0iMjEyIiBzdHJva2U9IiM4ODgiIHN0cm9rZS13aWR0aD0iMiIgbWFya2VyLWVuZD0idXJsKCNhcnJvdykiLz4KICA8dGV4dCB4PSIzMzIiIHk9IjIwMCIgY2xhc3M9ImV4Ij50aGUgZG91YmxlIGJlY29tZXMgdGhlIHNwaW5uZXI8L3RleHQ+CgogIDwhLS0gQWZ0ZXIgLS0+CiAgPHRleHQgeD0iMjAiIHk9IjI0MCIgY2xhc3M9ImhlYWQiPkFmdGVyOiA0LTQgaXMgdGhlIHNwaW5uZXI7IHRoZSBvbGQgbGluZSBpcyBpdHMgd2VzdCBhcm08L3RleHQ+CiAgPHJlY3QgeD0iMjYwIiB5PSIyNTAiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjYiIGNsYXNzPSJjbG9zZWQiLz4KICA8dGV4dCB4PSIyODAiIHk9IjI5NSIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4IiBmaWxsPSIjOTk5Ij5OPC90ZXh0PgogIDxyZWN0IHg9IjI2MCIgeT0iMzkwIiB3aWR0aD0iNDAiIGhlaWdodD0iMzYiIHJ4PSI2IiBjbGFzcz0iY2xvc2VkIi8+CiAgPHRleHQgeD0iMjgwIiB5PSI0MTQiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCIgZmlsbD0iIzk5OSI+UzwvdGV4dD4KICA8cmVjdCB4PSIxMDAiIHk9IjMzMCIgd2lkdGg9IjgwIiBoZWlnaHQ9IjQwIiByeD0iNiIgY2xhc3M9InQiLz4KICA8bGluZSB4MT0iMTQwIiB5MT0iMzM1IiB4Mj0iMTQwIiB5Mj0iMzY1IiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3AxIiB4PSIxMDAiIHk9IjMzMCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3AyIiB4PSIxNDAiIHk9IjMzMCIvPgogIDxyZWN0IHg9IjE4MCIgeT0iMzMwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI2IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSIyMjAiIHkxPSIzMzUiIHgyPSIyMjAiIHkyPSIzNjUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDIiIHg9IjE4MCIgeT0iMzMwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDQiIHg9IjIyMCIgeT0iMzMwIi8+CiAgPHJlY3QgeD0iMjYwIiB5PSIzMTAiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjYiIGNsYXNzPSJzcCIvPgogIDxsaW5lIHgxPSIyNjUiIHkxPSIzNTAiIHgyPSIyOTUiIHkyPSIzNTAiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDQiIHg9IjI2MCIgeT0iMzEwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDQiIHg9IjI2MCIgeT0iMzUwIi8+CiAgPHJlY3QgeD0iMzAwIiB5PSIzMzAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJnaG9zdCIvPgogIDx0ZXh0IHg9IjMyMCIgeT0iMzU2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0idiI+NDwvdGV4dD4KICA8dGV4dCB4PSI5MiIgeT0iMzU2IiB0ZXh0LWFuY2hvcj0iZW5kIiBjbGFzcz0idiI+MTwvdGV4dD4KICA8dGV4dCB4PSIxODAiIHk9IjM5NiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9Im1vbm8iPndlc3Q6IFs0fDJdIFsyfDFdPC90ZXh0PgogIDx0ZXh0IHg9IjMxMCIgeT0iMjc1IiBjbGFzcz0iZXgiPm5vcnRoIGFuZCBzb3V0aDogY2xvc2VkPC90ZXh0PgogIDx0ZXh0IHg9IjMxMCIgeT0iMjkzIiBjbGFzcz0iZXgiPnVudGlsIGVhc3QgaG9sZHMgYSB0aWxlPC90ZXh0PgogIDx0ZXh0IHg9IjM5MiIgeT0iMzQ2IiBjbGFzcz0iZXgiPmVhc3Q6IGVtcHR5LCB0YWtlcyBhIDQ8L3RleHQ+CiAgPHRleHQgeD0iMzkyIiB5PSIzNjYiIGNsYXNzPSJleCI+Y291bnQgMSArIDIgw5cgNCA9IDksIHVuY2hhbmdlZDwvdGV4dD4KPC9zdmc+Cg==" alt="Under first_double, the first double laid on an end becomes the spinner"></p>
<p>Under <code>first_double</code>, when a double is laid on the east end of a line, the line becomes the
double&#39;s <strong>west</strong> arm (and the other way round when it is laid on the west end). The line&#39;s far
end stays exactly where it was, so the open-end count is unchanged by the change of spinner. The
arm on the side where the double was laid starts empty and matches the double&#39;s number. North and
south then open by the usual rule: only once that empty side has received a tile (or at once with
<code>spinner_sides_open_immediately</code>).</p>
<h2 id="your-turn-play-draw-or-pass">Your turn: play, draw or pass</h2>
<p>The leader&#39;s first turn of a round is always a <strong>lead</strong>: any tile from hand. After that, on their
turn a player does exactly one of:</p>
<ol>
<li><strong>Play</strong> a tile from hand on an open end: an arm&#39;s last number, or for an empty arm the number
it starts with (for north and south of a non-double spinner, either half). The tile must show
the number it is laid against. The count is checked at once (see
<a href="#scoring-the-open-ends">scoring</a>).</li>
<li><strong>Draw</strong> one tile from the boneyard. This is allowed only when the player holds <strong>no playable
tile</strong> and the boneyard holds more than <code>boneyard_reserve</code> tiles. Drawing does not end the
turn: the player draws again, one tile at a time, until they hold a playable tile, and must
then play (any playable tile, not necessarily the one just drawn). If the drawable tiles run
out first, they pass.</li>
<li><strong>Pass</strong>: allowed only when the player holds no playable tile <strong>and</strong> cannot draw.</li>
</ol>
<p>A player who can play must play. With <code>may_draw_when_able</code>, a player who holds a playable tile
may draw anyway (any number of times, one draw per action, while tiles are drawable); the leader
still may not draw before leading.</p>
<p>So a player is never free to choose between drawing and passing: the engine offers the one that
applies. A bot&#39;s list of legal actions always holds either leads, or plays, or exactly <code>draw</code>, or
exactly <code>pass</code> (plus <code>draw</code> beside the plays under <code>may_draw_when_able</code>).</p>
<h2 id="scoring-the-open-ends">Scoring the open ends</h2>
<p>After every play (the lead included) the engine computes the <strong>count</strong>, the sum of:</p>
<ul>
<li>for <strong>each arm that holds at least one tile</strong>: the open number of its last tile, or <strong>twice</strong>
that number if the last tile is a double (a crosswise double shows both halves);</li>
<li>for <strong>the spinner itself</strong> (on a plain line without a spinner, the first tile; see below):<ul>
<li>if west and east are both empty: its whole pips (<code>a + b</code>; <code>2d</code> for a double <code>d-d</code>);</li>
<li>if exactly one of west and east is empty: the spinner&#39;s half on that side (<code>a</code> for west, <code>b</code>
for east), twice that number if the spinner is a double;</li>
<li>if west and east both hold tiles: nothing;</li>
</ul>
</li>
<li><strong>empty north and south arms add nothing.</strong></li>
</ul>
<p>Only west and east decide what the spinner adds: a tile on north or south, even against one of
its halves, does not cover that half for the count.</p>
<p>If the count is a <strong>positive multiple of 5</strong>, the player who just played scores <strong>the count
itself</strong> for their side: a count of 5 scores 5, a count of 25 scores 25. Any other count scores
nothing.</p>
<p>The same formula applies to the first tile of a plain line (<code>spinner = none</code>, or
<code>first_double</code> before any double): west and east are its only arms.</p>
<h2 id="the-end-of-a-round">The end of a round</h2>
<p>A round ends in one of three ways.</p>
<ul>
<li><strong>Domino</strong>: a player plays their last tile. The round ends at once (after that play&#39;s count is
scored).</li>
<li><strong>Blocked</strong>: every seat passes in turn, one full cycle with no play in between. Since passing
requires that nobody can draw, nobody can move any more.</li>
<li><strong>Target reached</strong>: a play brings its side&#39;s score to the target (unless
<code>finish_round_at_target</code>). The game ends there; see <a href="#the-end-of-the-game">the end of the game</a>.</li>
</ul>
<h3 id="the-rounds-winner">The round&#39;s winner</h3>
<ul>
<li>After a domino, the player who dominoed.</li>
<li>After a blocked round, the player with the <strong>lowest pip total</strong> left in hand. With teams, the
sides&#39; totals (both partners&#39; pips added) are compared instead; the side with the lower total
wins, and of its two players the one with fewer pips is the round&#39;s winner. If both partners
hold equal pips, the lower seat number is the winner.</li>
<li>If the lowest hand (or, with teams, the lowest side total) is <strong>shared by two or more sides, the
round is tied</strong>: nobody scores for it.</li>
</ul>
<h3 id="the-round-score">The round score</h3>
<p>The winner&#39;s side scores</p>
<pre><code>round_to_5( pips in every opponent&#39;s hand − pips left in the winner&#39;s own hand )
</code></pre>
<ul>
<li><em>opponents</em> are all players of the other sides. A partner&#39;s hand counts neither way.</li>
<li>The subtraction comes before the rounding. The result is rounded to the nearest multiple of 5:
a remainder of 1 or 2 rounds down, 3 or 4 rounds up (22 → 20, 23 → 25, 25 → 25).</li>
<li>A result below zero scores 0.</li>
<li>With <code>blocked_scoring = OPPONENTS</code>, the winner&#39;s own hand is not subtracted: the side scores
<code>round_to_5(opponents&#39; pips)</code>.</li>
</ul>
<p>After a domino the winner&#39;s hand is empty, so the two settings differ only for blocked rounds.</p>
<h3 id="the-next-round">The next round</h3>
<p>The winner of a round leads the next one, with any tile (which becomes that round&#39;s spinner under
the default rule). After a tied blocked round, the seat after the previous round&#39;s leader leads.
All 28 tiles are shuffled and dealt again.</p>
<h2 id="the-end-of-the-game">The end of the game</h2>
<p>The game is won by the first side to reach the <code>target</code> (250 by default).</p>
<ul>
<li><strong>By default the game ends the moment a side reaches the target</strong>, even in the middle of a
round. The round stops there unscored: its end is recorded as <em>target reached</em>, no round
points are paid, and the side that reached the target wins. This holds even when the play that
reached the target was the player&#39;s last tile: the round is not scored as a domino.</li>
<li>A side can also reach the target with the points of a round it won (domino or blocked). The
game then ends when that round is scored.</li>
<li>With <code>finish_round_at_target</code>, reaching the target during play does not stop anything: the
round is played to its domino or block and scored as usual. When a round ends with some side at
or above the target, the side with the <strong>highest score</strong> wins, whether or not it was the first
to reach the target.</li>
<li>If, at the end of a round, the highest score is at or above the target but <strong>shared</strong>, another
round is played, and again after that, until one side leads alone. (This can only happen with
<code>finish_round_at_target</code>: in the default mode the first side to reach the target ends the game
at once.)</li>
</ul>
<p><strong>Resigning.</strong> A seat may resign through the server (<code>GameService.Resign</code>). The game ends at once
and the resigning seat&#39;s side loses. The winners are the players of the other sides with the
highest score; if several of those sides share the highest score, all of them are listed as
winners.</p>
<h2 id="what-each-player-can-see">What each player can see</h2>
<p>A player sees their own hand, the layout, every side&#39;s score, how many tiles each other player
holds, how many tiles are in the boneyard (and how many of them can still be drawn), whose turn it
is, the round number and its leader, and the whole public history: who led or played which tile
where, who drew (but not which tile), who passed. Nobody sees another player&#39;s hand or the order
of the boneyard.</p>
<p>When a round ends every hand is revealed, because it is scored: the round result lists each seat&#39;s
hand. A spectator sees everything a player sees except a hand of their own. Once the game is over,
its full log (every hand and every drawn tile) can be read for analysis.</p>
<p>The bot view built from this (the <code>view</code> map given to a Rhai bot) is described in
<a href="/bots/guide#the-view"><code>bots/README.md</code></a>.</p>
<h2 id="writing-actions-down">Writing actions down</h2>
<p>Clack writes actions in a short text notation. It is what the history of a bot&#39;s view holds
(<code>view.history[i].action</code>), what each legal action&#39;s <code>text</code> is, and what the command-line tools
print.</p>
<table>
<thead>
<tr>
<th>action</th>
<th>written</th>
<th>meaning</th>
</tr>
</thead>
<tbody><tr>
<td>lead</td>
<td><code>3-5</code></td>
<td>lead the tile 3-5</td>
</tr>
<tr>
<td>play</td>
<td><code>1-3 west@3</code></td>
<td>lay 1-3 on the west arm, its 3 against the arm&#39;s 3</td>
</tr>
<tr>
<td>play</td>
<td><code>5-5 north@5</code></td>
<td>lay 5-5 on the north arm, against the spinner&#39;s 5 half (or the arm&#39;s 5)</td>
</tr>
<tr>
<td>draw</td>
<td><code>draw</code></td>
<td>ask the boneyard for a tile</td>
</tr>
<tr>
<td>pass</td>
<td><code>pass</code></td>
<td>pass</td>
</tr>
</tbody></table>
<p>The engine always writes the tile low half first (<code>1-3</code>, never <code>3-1</code>), then the arm, then <code>@</code> and
the matched number.</p>
<p>When reading an action from a person or a client, the engine is lenient:</p>
<ul>
<li>the tile may be written either way round (<code>3-1</code> = <code>1-3</code>);</li>
<li>the arm may be abbreviated to its first letter and written in any case (<code>w</code>, <code>E</code>, <code>north</code>);</li>
<li><code>@n</code> may be left out, and so may the arm, when only one end fits: <code>5-6</code> alone plays 5-6 if it
fits exactly one (arm, number) end, <code>5-6 north</code> picks the only north end it fits;</li>
<li>if it fits more than one end the engine answers <em>&quot;5-6 fits more than one end: name the arm (and
for north or south, the half: <code>north@5</code>)&quot;</em>;</li>
<li>anything else is refused with a reminder of the forms above.</li>
</ul>
<p>Over gRPC, a move is a <code>StraightAction</code> with <code>kind</code> (<code>KIND_LEAD</code>, <code>KIND_PLAY</code>, <code>KIND_DRAW</code>,
<code>KIND_PASS</code>), <code>tile</code>, <code>arm</code> (<code>ARM_WEST</code>, <code>ARM_EAST</code>, <code>ARM_NORTH</code>, <code>ARM_SOUTH</code>) and <code>matched</code>. As
with the text form, <code>arm</code> and <code>matched</code> may be left out of a play when only one end fits; the
server fills them in and always records them.</p>
<p>The command-line tools show a layout one arm per line, outward from the spinner, each tile as
<code>[inner|outer]</code> (the inner number faces the spinner), and the count:</p>
<pre><code class="language-text">spinner 3-5
  west  [3|1]
  east  [5|2]
  north [5|5]
count 13
</code></pre>
<h3 id="the-order-of-legal-actions">The order of legal actions</h3>
<p>The engine lists legal actions in a fixed order, which is the order of <code>view.legal</code> for a bot:
leads by tile; then plays by arm (west, east, north, south), then by matched number (low first),
then by tile; then <code>draw</code>; then <code>pass</code>. Tiles are ordered by high half, then low half
(<code>0-0, 0-1, 1-1, 0-2, 1-2, 2-2, 0-3, ...</code>).</p>
<h2 id="refused-actions">Refused actions</h2>
<p>An illegal action changes nothing; the engine answers with the reason.</p>
<table>
<thead>
<tr>
<th>the player tried to</th>
<th>answer</th>
</tr>
</thead>
<tbody><tr>
<td>act after the game ended</td>
<td>the game is over</td>
</tr>
<tr>
<td>act out of turn</td>
<td>it is not your turn: seat <em>n</em> is to play</td>
</tr>
<tr>
<td>act while a deal or draw is being made</td>
<td>wait: the dealer has not finished dealing or drawing</td>
</tr>
<tr>
<td>use a tile they do not hold</td>
<td>you do not hold <em>tile</em></td>
</tr>
<tr>
<td>lead when the round has been led</td>
<td>the round has been led already: lay <em>tile</em> on an arm</td>
</tr>
<tr>
<td>play on an arm before anyone led</td>
<td>nobody has led yet: lead a tile first</td>
</tr>
<tr>
<td>play north or south before they open</td>
<td>the <em>arm</em> arm is not open yet: west and east must each hold a tile first</td>
</tr>
<tr>
<td>name a number the arm does not offer</td>
<td>the <em>arm</em> arm has no open <em>n</em> to lay against</td>
</tr>
<tr>
<td>lay a tile that does not show that number</td>
<td><em>tile</em> does not match the <em>n</em> at the end of the <em>arm</em> arm</td>
</tr>
<tr>
<td>draw while holding a playable tile</td>
<td>you hold a playable tile, so you must play rather than draw</td>
</tr>
<tr>
<td>draw when nothing is drawable</td>
<td>the boneyard is empty</td>
</tr>
<tr>
<td>pass while holding a playable tile</td>
<td>you may not pass while you hold a playable tile</td>
</tr>
<tr>
<td>pass while tiles can be drawn</td>
<td>you may not pass while the boneyard has tiles: draw</td>
</tr>
</tbody></table>
<h2 id="edge-cases-the-engine-settles">Edge cases the engine settles</h2>
<p>The traditional rules are silent or disagree on these; this is what Clack does.</p>
<ul>
<li><strong>Lead draw.</strong> Any double outranks every non-double; ties are impossible (see
<a href="#who-leads-the-first-round">who leads</a>). The draw happens once per game.</li>
<li><strong>Orientation of the first tile.</strong> A non-double first tile always lies low half west, high half
east; the leader does not choose. (The layout is symmetric, so nothing is lost.)</li>
<li><strong>North and south of a non-double spinner</strong> take either half, chosen by the player, and
<strong>stay closed until west and east each hold a tile</strong> (unless
<code>spinner_sides_open_immediately</code>). Under <code>spinner = none</code> they never open.</li>
<li><strong>The spinner in the count</strong> depends only on west and east. A tile north or south &quot;against the
5 half&quot; does not stop that half from counting while east is empty (see
<a href="#a-side-arm-opened-early">this example</a>).</li>
<li><strong>Empty north and south arms count nothing</strong>, even when open.</li>
<li><strong>A crosswise double counts twice</strong> only while it is the last tile of its arm; once a tile is
laid on it, only the new tile&#39;s open number counts.</li>
<li><strong><code>first_double</code> re-rooting</strong> keeps the count unchanged, puts the old line on the far side of the
new spinner, and leaves the near side empty (it must receive a tile before north and south
open).</li>
<li><strong>Drawing</strong> is one tile per action, the player keeps the turn, and a drawing player may stop
only by playing. A player who cannot play and cannot draw must pass; a player may never pass
while a tile can be drawn.</li>
<li><strong>Empty boneyard.</strong> With 4 players (or once the boneyard is down to the reserve) there is nothing
to draw; a player with no playable tile passes.</li>
<li><strong>Blocked round</strong> = one full cycle of passes. A play resets the cycle.</li>
<li><strong>Ties in a blocked round</strong> (lowest hand or lowest side total shared by two or more sides):
nobody scores, and the seat after the previous leader leads the next round.</li>
<li><strong>Team blocked rounds</strong> compare side totals; the winning side&#39;s lighter partner is the winner
(the lower seat on equal pips) and, under <code>NET</code>, only that partner&#39;s pips are subtracted.</li>
<li><strong>Negative round scores</strong> (possible under <code>NET</code> in a blocked round) become 0.</li>
<li><strong>The target</strong> ends the game on the very play that reaches it (default), scoring no round
points, even if that play was a domino. Reaching the target through round points ends the game
when the round is scored.</li>
<li><strong>A tie at or above the target</strong> after a round plays another full round, as often as needed.</li>
<li><strong>Resigning</strong> ends the game: the resigning side loses and the best-scoring other sides win.</li>
</ul>
<h2 id="worked-examples">Worked examples</h2>
<p>Every example here is a test in <code>crates/clack-rules/tests/straight_rules.rs</code> or a golden position
in <code>crates/clack-rules/tests/golden/straight.json</code>.</p>
<h3 id="counts-after-single-plays">Counts after single plays</h3>
<p>Each line starts a fresh round; &quot;scores&quot; is what the last play earned.</p>
<table>
<thead>
<tr>
<th>layout after the play</th>
<th>count</th>
<th>scores</th>
</tr>
</thead>
<tbody><tr>
<td>lead 5-5</td>
<td>5 + 5 = 10</td>
<td>10</td>
</tr>
<tr>
<td>lead 6-4</td>
<td>4 + 6 = 10</td>
<td>10</td>
</tr>
<tr>
<td>lead 3-2</td>
<td>2 + 3 = 5</td>
<td>5</td>
</tr>
<tr>
<td>lead 6-6</td>
<td>12</td>
<td>0</td>
</tr>
<tr>
<td>lead 6-6, then 6-3 east</td>
<td>the spinner&#39;s empty west side, 2 × 6 = 12, plus 3 = 15</td>
<td>15</td>
</tr>
<tr>
<td>lead 4-4, then 4-6 east</td>
<td>2 × 4 + 6 = 14</td>
<td>0</td>
</tr>
<tr>
<td>lead 5-5, then 5-0 east</td>
<td>2 × 5 + 0 = 10</td>
<td>10</td>
</tr>
<tr>
<td>... then 0-0 on the east end</td>
<td>2 × 5 + 2 × 0 = 10</td>
<td>10</td>
</tr>
<tr>
<td>lead 2-4, then 4-4 east</td>
<td>the spinner&#39;s west half 2, plus the crosswise 4-4, 8: 10</td>
<td>10</td>
</tr>
<tr>
<td>lead 3-5, 3-1 west, 5-2 east, 5-5 north against the 5</td>
<td>1 + 2 + 10 = 13 (the spinner adds nothing: west and east are both taken)</td>
<td>0</td>
</tr>
</tbody></table>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNDAwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjQwMCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5Ib3cgdGhlIHNwaW5uZXIgYW5kIGNyb3Nzd2lzZSBkb3VibGVzIGNvdW50OiB0aHJlZSB3b3JrZWQgY291bnRzPC90aXRsZT4KICA8ZGVmcz4KICAgIDxzdHlsZT4KICAgICAgLnQgeyBmaWxsOiAjZmZmZGY2OyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMjsgfQogICAgICAuc3AgeyBmaWxsOiAjZmZlNmEwOyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMi41OyB9CiAgICAgIC5kIHsgc3Ryb2tlOiAjMmIyYjJiOyBzdHJva2Utd2lkdGg6IDEuNTsgfQogICAgICAucGlwIHsgZmlsbDogIzFkMWQxZDsgfQogICAgICAudiB7IGZvbnQtc2l6ZTogMTVweDsgZm9udC13ZWlnaHQ6IGJvbGQ7IGZpbGw6ICMyZjZmYjA7IH0KICAgICAgLnN0ZXAgeyBmb250LXNpemU6IDE1cHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjMjIyOyB9CiAgICAgIC5leCB7IGZvbnQtc2l6ZTogMTRweDsgZmlsbDogIzQ0NDsgfQogICAgICAub2sgeyBmb250LXNpemU6IDE1cHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjMmI4YTNlOyB9CiAgICAgIC5ubyB7IGZvbnQtc2l6ZTogMTVweDsgZm9udC13ZWlnaHQ6IGJvbGQ7IGZpbGw6ICNhMzM7IH0KICAgIDwvc3R5bGU+CiAgICA8ZyBpZD0icDIiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOCIvPjwvZz4KICAgIDxnIGlkPSJwMyIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy44Ii8+PC9nPgogICAgPGcgaWQ9InA0IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjExIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjI5IiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjgiLz48L2c+CiAgICA8IS0tIHNpeCBzdGFuZGluZyBub3J0aC1zb3V0aCAodHdvIGNvbHVtbnMpIGFuZCBseWluZyBlYXN0LXdlc3QgKHR3byByb3dzKSAtLT4KICAgIDxnIGlkPSJwNnYiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjEyIiBjeT0iMTAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjEyIiBjeT0iMjAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjEyIiBjeT0iMzAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMTAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMjAiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMzAiIHI9IjMuNiIvPjwvZz4KICAgIDxnIGlkPSJwNmgiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjEwIiBjeT0iMTIiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMTIiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjMwIiBjeT0iMTIiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjEwIiBjeT0iMjgiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjgiIHI9IjMuNiIvPjxjaXJjbGUgY3g9IjMwIiBjeT0iMjgiIHI9IjMuNiIvPjwvZz4KICA8L2RlZnM+CgogIDwhLS0gUm93IDE6IGxlYWQgNi02IC0tPgogIDxyZWN0IHg9IjEyMCIgeT0iMjUiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjYiIGNsYXNzPSJzcCIvPgogIDxsaW5lIHgxPSIxMjUiIHkxPSI2NSIgeDI9IjE1NSIgeTI9IjY1IiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A2diIgeD0iMTIwIiB5PSIyNSIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A2diIgeD0iMTIwIiB5PSI2NSIvPgogIDx0ZXh0IHg9IjExMiIgeT0iNzAiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJ2Ij42ICsgNjwvdGV4dD4KICA8dGV4dCB4PSIyNTAiIHk9IjQ1IiBjbGFzcz0ic3RlcCI+TGVhZCA2LTY8L3RleHQ+CiAgPHRleHQgeD0iMjUwIiB5PSI2NyIgY2xhc3M9ImV4Ij5XZXN0IGFuZCBlYXN0IGFyZSBlbXB0eTogdGhlIHNwaW5uZXIgY291bnRzIHdob2xlLjwvdGV4dD4KICA8dGV4dCB4PSIyNTAiIHk9IjkxIiBjbGFzcz0iZXgiPmNvdW50IDEyPC90ZXh0PgogIDx0ZXh0IHg9IjMzMCIgeT0iOTEiIGNsYXNzPSJubyI+bm8gc2NvcmU8L3RleHQ+CgogIDxsaW5lIHgxPSIyMCIgeTE9IjEzMCIgeDI9IjYyMCIgeTI9IjEzMCIgc3Ryb2tlPSIjZTJlMmUyIi8+CgogIDwhLS0gUm93IDI6IDYtNiwgdGhlbiA2LTMgZWFzdCAtLT4KICA8cmVjdCB4PSIxMDAiIHk9IjE1MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNiIgY2xhc3M9InNwIi8+CiAgPGxpbmUgeDE9IjEwNSIgeTE9IjE5MCIgeDI9IjEzNSIgeTI9IjE5MCIgY2xhc3M9ImQiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNnYiIHg9IjEwMCIgeT0iMTUwIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDZ2IiB4PSIxMDAiIHk9IjE5MCIvPgogIDxyZWN0IHg9IjE0MCIgeT0iMTcwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI2IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSIxODAiIHkxPSIxNzUiIHgyPSIxODAiIHkyPSIyMDUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDZoIiB4PSIxNDAiIHk9IjE3MCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3AzIiB4PSIxODAiIHk9IjE3MCIvPgogIDx0ZXh0IHg9IjkyIiB5PSIxOTUiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJ2Ij4yIMOXIDY8L3RleHQ+CiAgPHRleHQgeD0iMjI4IiB5PSIxOTUiIGNsYXNzPSJ2Ij4zPC90ZXh0PgogIDx0ZXh0IHg9IjI1MCIgeT0iMTcwIiBjbGFzcz0ic3RlcCI+TGVhZCA2LTYsIHRoZW4gNi0zIGVhc3Q8L3RleHQ+CiAgPHRleHQgeD0iMjUwIiB5PSIxOTIiIGNsYXNzPSJleCI+V2VzdCBpcyBzdGlsbCBlbXB0eTogdGhlIGRvdWJsZSBzcGlubmVyJ3Mgd2VzdCBzaWRlPC90ZXh0PgogIDx0ZXh0IHg9IjI1MCIgeT0iMjEyIiBjbGFzcz0iZXgiPmNvdW50cyAyIMOXIDYgPSAxMi4gRWFzdCBlbmRzIGluIDMuPC90ZXh0PgogIDx0ZXh0IHg9IjI1MCIgeT0iMjM2IiBjbGFzcz0iZXgiPmNvdW50IDEyICsgMyA9IDE1PC90ZXh0PgogIDx0ZXh0IHg9IjQwMCIgeT0iMjM2IiBjbGFzcz0ib2siPnNjb3JlcyAxNTwvdGV4dD4KCiAgPGxpbmUgeDE9IjIwIiB5MT0iMjYyIiB4Mj0iNjIwIiB5Mj0iMjYyIiBzdHJva2U9IiNlMmUyZTIiLz4KCiAgPCEtLSBSb3cgMzogMi00LCB0aGVuIDQtNCBlYXN0IChjcm9zc3dpc2UpIC0tPgogIDxyZWN0IHg9IjYwIiB5PSIzMTAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjYiIGNsYXNzPSJzcCIvPgogIDxsaW5lIHgxPSIxMDAiIHkxPSIzMTUiIHgyPSIxMDAiIHkyPSIzNDUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDIiIHg9IjYwIiB5PSIzMTAiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNCIgeD0iMTAwIiB5PSIzMTAiLz4KICA8cmVjdCB4PSIxNDAiIHk9IjI5MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNiIgY2xhc3M9InQiLz4KICA8bGluZSB4MT0iMTQ1IiB5MT0iMzMwIiB4Mj0iMTc1IiB5Mj0iMzMwIiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A0IiB4PSIxNDAiIHk9IjI5MCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A0IiB4PSIxNDAiIHk9IjMzMCIvPgogIDx0ZXh0IHg9IjUyIiB5PSIzMzUiIHRleHQtYW5jaG9yPSJlbmQiIGNsYXNzPSJ2Ij4yPC90ZXh0PgogIDx0ZXh0IHg9IjE4OCIgeT0iMzM1IiBjbGFzcz0idiI+NCArIDQ8L3RleHQ+CiAgPHRleHQgeD0iMjUwIiB5PSIzMDIiIGNsYXNzPSJzdGVwIj5MZWFkIDItNCwgdGhlbiA0LTQgZWFzdDwvdGV4dD4KICA8dGV4dCB4PSIyNTAiIHk9IjMyNCIgY2xhc3M9ImV4Ij5UaGUgc3Bpbm5lcidzIHdlc3QgaGFsZiBzaG93cyAyLiBUaGUgY3Jvc3N3aXNlIDQtNDwvdGV4dD4KICA8dGV4dCB4PSIyNTAiIHk9IjM0NCIgY2xhc3M9ImV4Ij5lbmRzIHRoZSBlYXN0IGFybSBhbmQgc2hvd3MgYm90aCBoYWx2ZXM6IDguPC90ZXh0PgogIDx0ZXh0IHg9IjI1MCIgeT0iMzY4IiBjbGFzcz0iZXgiPmNvdW50IDIgKyA4ID0gMTA8L3RleHQ+CiAgPHRleHQgeD0iNDAwIiB5PSIzNjgiIGNsYXNzPSJvayI+c2NvcmVzIDEwPC90ZXh0Pgo8L3N2Zz4K" alt="How the spinner and crosswise doubles count"></p>
<p>The last line is the layout drawn at the top of this page. In the four-player position of
<code>crates/clack-rules/tests/golden/straight.json</code> built from it, seat 0 holds
<code>0-0 0-2 0-3 0-4 0-5 0-6</code> and may play <code>0-2 east@2</code>, <code>0-5 north@5</code> (on the crosswise 5-5),
<code>0-3 south@3</code> or <code>0-5 south@5</code> (south is empty and open, so it takes either half of the spinner).</p>
<h3 id="first-double-becomes-the-spinner">First double becomes the spinner</h3>
<p>With <code>spinner = first_double</code>: lead 2-4 (a plain line, 2 west and 4 east), 1-2 west, then 4-4
east. The 4-4 becomes the spinner. The old line now hangs west of it, read outward <code>[4|2] [2|1]</code>,
and the east arm is empty. The count is 1 (west end) + 2 × 4 (the double spinner&#39;s empty east
side) = 9, the same as just before the change, so the play scores nothing. North and south stay
closed until something is laid east.</p>
<h3 id="a-side-arm-opened-early">A side arm opened early</h3>
<p>With <code>spinner_sides_open_immediately</code>: lead 3-5; now the west end takes a 3, the east end a 5,
and north and south take a 3 or a 5. Lay 5-5 south against the 5. West and east are still empty,
so the spinner counts whole (3 + 5 = 8) and the crosswise 5-5 adds 10: the count is 18, no score.</p>
<h3 id="drawing">Drawing</h3>
<p>Two players, seat 0 leads 6-6. Seat 1 holds no six: its only legal action is <code>draw</code> (passing is
refused while tiles can be drawn). It draws 0-4, still has no six, and must draw again; it draws
2-6, and now its legal actions are <code>2-6 west@6</code> and <code>2-6 east@6</code>. Drawing again or passing is now
refused.</p>
<h3 id="a-blocked-round">A blocked round</h3>
<p>Two players with <code>boneyard_reserve = 14</code> (nothing can be drawn). Seat 0 holds
<code>6-6 0-0 0-1 0-2 1-1 1-2 2-2</code>, seat 1 holds <code>3-3 3-4 4-4 3-5 4-5 5-5 0-3</code>. Seat 0 leads 6-6
(count 12, no score); nobody holds another six, so both pass and the round is blocked. Seat 0 has
12 pips left and seat 1 has 51: seat 0 wins and scores <code>round_to_5(51 − 12) = round_to_5(39) = 40</code>.
Under <code>blocked_scoring = OPPONENTS</code> it would score <code>round_to_5(51) = 50</code>. Seat 0 leads the next
round.</p>
<h3 id="a-tied-blocked-round">A tied blocked round</h3>
<p>Three players, <code>boneyard_reserve = 7</code>. Seat 0 leads 5-5 (count 10, scores 10); nobody else holds a
five and seat 0 has no other, so all three pass. Seats 1 and 2 both hold 29 pips: the round is
tied, nobody scores it, and seat 1 (the seat after the leader, seat 0) leads the next round.</p>
<h3 id="a-team-blocked-round">A team blocked round</h3>
<p>Four players in teams, <code>spinner = none</code>. After ten plays (6-4 on the east end made the count
6 + 4 = 10 and scored 10 for side 1) every six is down and both ends show 6; all four pass. Side 0
holds 7 pips (seat 0) + 20 pips (seat 2) = 27, side 1 holds 24 + 39 = 63. Side 0 wins; its lighter
partner, seat 0, is the round&#39;s winner, and side 0 scores <code>round_to_5(63 − 7) = 55</code>.</p>
<h3 id="a-domino">A domino</h3>
<p>Two players, no drawing, <code>spinner = none</code>. Seat 0 leads 1-1 and the two players build the line
out both ways; none of the first twelve plays makes a multiple of 5. The west end finishes on a
crosswise 5-5 (counting 10). Seat 0 then lays its last tile, 5-6, on the east end against a 6:
the east end shows 5 and the count is 10 + 5 = 15, so seat 0 scores 15. That was its last tile:
domino. Seat 1 still holds 2-5, 7 pips, so seat 0 scores <code>round_to_5(7) = 5</code> more, 20 in all.</p>
<h3 id="reaching-the-target">Reaching the target</h3>
<p>With <code>target = 10</code>, leading 5-5 scores 10 and ends the game on the spot: the round ends as
<em>target reached</em>, no round points are paid, and the leader&#39;s side wins 10–0. With
<code>finish_round_at_target</code> the same lead only scores 10 and play goes on.</p>
`,streets:`<h1>Streets and Avenues</h1>
<p>Streets and Avenues is a domino game by Stephen and Kenneth Kokoska. Instead of a line of
matching ends, the players lay out a city: <strong>avenues</strong> of dominoes running north–south,
<strong>streets</strong> laid crosswise between them, and the <strong>blocks</strong> the streets and avenues enclose.
Every block you close scores a point, and every tile left in your hand at the end costs one.</p>
<p>This page is the complete set of rules Clack plays, written for players and for bot authors. The
original text came with diagrams that were lost, so Clack had to pin down an exact geometry; this
page describes it, and says exactly what the engine (<code>crates/clack-rules/src/streets/</code>) does,
including the cases the original leaves open.</p>
<p>The other game on the server is <a href="/rules/straight">Straight Dominoes</a>.</p>
<ul>
<li><a href="#at-a-glance">At a glance</a></li>
<li><a href="#rule-options">Rule options</a></li>
<li><a href="#the-set-the-seats-and-the-deal">The set, the seats and the deal</a></li>
<li><a href="#the-grid">The grid</a></li>
<li><a href="#touching-and-matching">Touching and matching</a></li>
<li><a href="#where-a-domino-may-go">Where a domino may go</a></li>
<li><a href="#blocks-and-points">Blocks and points</a></li>
<li><a href="#your-turn">Your turn</a></li>
<li><a href="#the-end-of-the-game">The end of the game</a></li>
<li><a href="#what-each-player-can-see">What each player can see</a></li>
<li><a href="#writing-actions-down">Writing actions down</a></li>
<li><a href="#refused-actions">Refused actions</a></li>
<li><a href="#edge-cases-the-engine-settles">Edge cases the engine settles</a></li>
<li><a href="#worked-examples-the-original-captions">Worked examples: the original captions</a></li>
</ul>
<h2 id="at-a-glance">At a glance</h2>
<table>
<thead>
<tr>
<th></th>
<th></th>
</tr>
</thead>
<tbody><tr>
<td>Set</td>
<td>double-nine (55 tiles) or double-twelve (91 tiles)</td>
</tr>
<tr>
<td>Players</td>
<td>2 by default; up to 7 with double-nine, 12 with double-twelve</td>
</tr>
<tr>
<td>Hand</td>
<td>7 tiles each, refilled from the boneyard after every placement</td>
</tr>
<tr>
<td>Goal</td>
<td>the highest score when play stops</td>
</tr>
<tr>
<td>Score</td>
<td>+1 for each block closed or created by dividing; −1 for each tile left in hand at the end</td>
</tr>
</tbody></table>
<h2 id="rule-options">Rule options</h2>
<p>The names are the fields of <code>StreetsOptions</code> in <code>proto/clack/v1/types.proto</code>; a field left unset
(or an <code>UNSPECIFIED</code> enum value) takes the default. A game records all its options when it is
created, so a replay uses the rules it was played with.</p>
<table>
<thead>
<tr>
<th>option</th>
<th>values</th>
<th>default</th>
<th>what it does</th>
</tr>
</thead>
<tbody><tr>
<td><code>set</code></td>
<td><code>DOMINO_SET_DOUBLE_NINE</code>, <code>DOMINO_SET_DOUBLE_TWELVE</code></td>
<td><code>DOUBLE_NINE</code></td>
<td>which set is played</td>
</tr>
<tr>
<td><code>players</code></td>
<td>2 or more, while <code>7 × players</code> is less than the number of tiles</td>
<td><strong>2</strong></td>
<td>seats at the table: 2–7 with double-nine, 2–12 with double-twelve</td>
</tr>
<tr>
<td><code>may_pass_when_able</code></td>
<td>true / false</td>
<td>false</td>
<td>a player who could place a domino may pass (or discard and draw) instead</td>
</tr>
</tbody></table>
<p>A <code>players</code> value outside the limit is refused when the game is created (<em>&quot;players must be at
least 2 and fewer than ... for this set&quot;</em>); the deal must leave at least one tile in the boneyard.</p>
<h2 id="the-set-the-seats-and-the-deal">The set, the seats and the deal</h2>
<ul>
<li><strong>Double-nine</strong>: the 55 tiles <code>a-b</code> with <code>0 ≤ a ≤ b ≤ 9</code>. <strong>Double-twelve</strong>: the 91 tiles up to
<code>12-12</code>.</li>
<li>Seats are numbered from 0; play passes to the next seat in number order, skipping any seat whose
hand is empty.</li>
<li>Each player is dealt 7 tiles, seen only by their owner. The rest form the <strong>boneyard</strong>.</li>
<li>The seat that plays first is chosen <strong>at random</strong>. The deal and the choice of first player are
one chance event in the game&#39;s log.</li>
<li>The game is played as a single round; there is no target score.</li>
</ul>
<h2 id="the-grid">The grid</h2>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNTYwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjU2MCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5TdHJlZXRzIGFuZCBBdmVudWVzIGdlb21ldHJ5OiBhdmVudWUgY29sdW1ucywgZ2Fwcywgcm93cywgaGFsZi1yb3dzLCBzdHJlZXRzIGFuZCBhIGJsb2NrPC90aXRsZT4KICA8ZGVmcz4KICAgIDxzdHlsZT4KICAgICAgLnQgeyBmaWxsOiAjZmZmZGY2OyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMjsgfQogICAgICAuZCB7IHN0cm9rZTogIzJiMmIyYjsgc3Ryb2tlLXdpZHRoOiAxLjU7IH0KICAgICAgLnBpcCB7IGZpbGw6ICMxZDFkMWQ7IH0KICAgICAgLmNvbCB7IGZpbGw6ICNmNGVhZDY7IH0KICAgICAgLnNxIHsgc3Ryb2tlOiAjZDhjY2I0OyBzdHJva2Utd2lkdGg6IDE7IGZpbGw6IG5vbmU7IH0KICAgICAgLmhhbGYgeyBzdHJva2U6ICNlNGU0ZTQ7IHN0cm9rZS13aWR0aDogMTsgc3Ryb2tlLWRhc2hhcnJheTogMyAzOyB9CiAgICAgIC5ibG9jayB7IGZpbGw6ICNiZmUzYzQ7IHN0cm9rZTogIzNkOGI0YTsgc3Ryb2tlLXdpZHRoOiAxLjU7IH0KICAgICAgLmF4aXMgeyBmb250LXNpemU6IDEzcHg7IGZpbGw6ICM2NjY7IH0KICAgICAgLmhlYWQgeyBmb250LXNpemU6IDE0cHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjNDQ0OyB9CiAgICAgIC50YWcgeyBmb250LXNpemU6IDEyLjVweDsgZm9udC13ZWlnaHQ6IGJvbGQ7IGZpbGw6ICNmZmY7IH0KICAgICAgLnRhZ2MgeyBmaWxsOiAjMmY2ZmIwOyB9CiAgICAgIC5sZWcgeyBmb250LXNpemU6IDE0cHg7IGZpbGw6ICMzMzM7IH0KICAgICAgLm1vbm8geyBmb250LWZhbWlseTogIkRlamFWdSBTYW5zIE1vbm8iLCBNZW5sbywgQ29uc29sYXMsIG1vbm9zcGFjZTsgZm9udC1zaXplOiAxMy41cHg7IGZpbGw6ICMyMjI7IH0KICAgIDwvc3R5bGU+CiAgICA8ZyBpZD0icDAiLz4KICAgIDxnIGlkPSJwMSIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMy44Ii8+PC9nPgogICAgPGcgaWQ9InAyIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjgiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjgiLz48L2c+CiAgICA8ZyBpZD0icDMiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOCIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOCIvPjwvZz4KICAgIDxnIGlkPSJwNSIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iMy44Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy44Ii8+PC9nPgogICAgPGcgaWQ9InA2diIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTIiIGN5PSIxMCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMTIiIGN5PSIyMCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMTIiIGN5PSIzMCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMjgiIGN5PSIxMCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMjgiIGN5PSIyMCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMjgiIGN5PSIzMCIgcj0iMy42Ii8+PC9nPgogICAgPGcgaWQ9InA2aCIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTAiIGN5PSIxMiIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIxMiIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMzAiIGN5PSIxMiIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMTAiIGN5PSIyOCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyOCIgcj0iMy42Ii8+PGNpcmNsZSBjeD0iMzAiIGN5PSIyOCIgcj0iMy42Ii8+PC9nPgogICAgPG1hcmtlciBpZD0iYXJyb3ciIHZpZXdCb3g9IjAgMCAxMCAxMCIgcmVmWD0iOSIgcmVmWT0iNSIgbWFya2VyV2lkdGg9IjciIG1hcmtlckhlaWdodD0iNyIgb3JpZW50PSJhdXRvIj4KICAgICAgPHBhdGggZD0iTTAsMCBMMTAsNSBMMCwxMCB6IiBmaWxsPSIjODg4Ii8+CiAgICA8L21hcmtlcj4KICA8L2RlZnM+CgogIDwhLS0gY29sdW1uIGhlYWRlcnM6IGF2ZW51ZSBjb2x1bW4gYSBzcGFucyB4ID0gMjQwICsgMTIwYSAuLiArNDAsIGdhcCBnIHNwYW5zIHRoZSBuZXh0IDgwIC0tPgogIDx0ZXh0IHg9IjIwMCIgeT0iNTIiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJoZWFkIj5nYXAg4oiSMTwvdGV4dD4KICA8dGV4dCB4PSIyNjAiIHk9IjQwIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+YXZlbnVlPC90ZXh0PgogIDx0ZXh0IHg9IjI2MCIgeT0iNTYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJoZWFkIj5jb2wgMDwvdGV4dD4KICA8dGV4dCB4PSIzMjAiIHk9IjUyIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+Z2FwIDA8L3RleHQ+CiAgPHRleHQgeD0iMzgwIiB5PSI0MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImhlYWQiPmF2ZW51ZTwvdGV4dD4KICA8dGV4dCB4PSIzODAiIHk9IjU2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+Y29sIDE8L3RleHQ+CiAgPHRleHQgeD0iNDQwIiB5PSI1MiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImhlYWQiPmdhcCAxPC90ZXh0PgogIDx0ZXh0IHg9Ijg0IiB5PSIzNCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImhlYWQiPnJvdzwvdGV4dD4KICA8dGV4dCB4PSIxNTAiIHk9IjM0IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+aGFsZi1yb3c8L3RleHQ+CgogIDwhLS0gYXZlbnVlIGNvbHVtbnMsIHNoYWRlZCwgd2l0aCB0aGVpciBzcXVhcmVzIC0tPgogIDxyZWN0IHg9IjI0MCIgeT0iNzAiIHdpZHRoPSI0MCIgaGVpZ2h0PSIyNDAiIGNsYXNzPSJjb2wiLz4KICA8cmVjdCB4PSIzNjAiIHk9IjcwIiB3aWR0aD0iNDAiIGhlaWdodD0iMjQwIiBjbGFzcz0iY29sIi8+CiAgPGcgY2xhc3M9ImhhbGYiPgogICAgPGxpbmUgeDE9IjE2MCIgeTE9IjkwIiB4Mj0iNDgwIiB5Mj0iOTAiLz48bGluZSB4MT0iMTYwIiB5MT0iMTMwIiB4Mj0iNDgwIiB5Mj0iMTMwIi8+CiAgICA8bGluZSB4MT0iMTYwIiB5MT0iMTcwIiB4Mj0iNDgwIiB5Mj0iMTcwIi8+PGxpbmUgeDE9IjE2MCIgeTE9IjIxMCIgeDI9IjQ4MCIgeTI9IjIxMCIvPgogICAgPGxpbmUgeDE9IjE2MCIgeTE9IjI1MCIgeDI9IjQ4MCIgeTI9IjI1MCIvPjxsaW5lIHgxPSIxNjAiIHkxPSIyOTAiIHgyPSI0ODAiIHkyPSIyOTAiLz4KICA8L2c+CiAgPGcgY2xhc3M9InNxIj4KICAgIDxsaW5lIHgxPSIxNjAiIHkxPSI3MCIgeDI9IjQ4MCIgeTI9IjcwIi8+PGxpbmUgeDE9IjE2MCIgeTE9IjExMCIgeDI9IjQ4MCIgeTI9IjExMCIvPgogICAgPGxpbmUgeDE9IjE2MCIgeTE9IjE1MCIgeDI9IjQ4MCIgeTI9IjE1MCIvPjxsaW5lIHgxPSIxNjAiIHkxPSIxOTAiIHgyPSI0ODAiIHkyPSIxOTAiLz4KICAgIDxsaW5lIHgxPSIxNjAiIHkxPSIyMzAiIHgyPSI0ODAiIHkyPSIyMzAiLz48bGluZSB4MT0iMTYwIiB5MT0iMjcwIiB4Mj0iNDgwIiB5Mj0iMjcwIi8+CiAgICA8bGluZSB4MT0iMTYwIiB5MT0iMzEwIiB4Mj0iNDgwIiB5Mj0iMzEwIi8+CiAgICA8bGluZSB4MT0iMjAwIiB5MT0iNzAiIHgyPSIyMDAiIHkyPSIzMTAiLz48bGluZSB4MT0iMjQwIiB5MT0iNzAiIHgyPSIyNDAiIHkyPSIzMTAiLz4KICAgIDxsaW5lIHgxPSIyODAiIHkxPSI3MCIgeDI9IjI4MCIgeTI9IjMxMCIvPjxsaW5lIHgxPSIzMjAiIHkxPSI3MCIgeDI9IjMyMCIgeTI9IjMxMCIvPgogICAgPGxpbmUgeDE9IjM2MCIgeTE9IjcwIiB4Mj0iMzYwIiB5Mj0iMzEwIi8+PGxpbmUgeDE9IjQwMCIgeTE9IjcwIiB4Mj0iNDAwIiB5Mj0iMzEwIi8+CiAgICA8bGluZSB4MT0iNDQwIiB5MT0iNzAiIHgyPSI0NDAiIHkyPSIzMTAiLz4KICA8L2c+CgogIDwhLS0gYXhlczogc3F1YXJlIHJvdyByIHNwYW5zIHkgPSA3MCArIDQwcjsgaGFsZi1yb3cgcyBzcGFucyB5ID0gNzAgKyAyMHMgLS0+CiAgPGcgY2xhc3M9ImF4aXMiIHRleHQtYW5jaG9yPSJtaWRkbGUiPgogICAgPHRleHQgeD0iODQiIHk9Ijk1Ij4wPC90ZXh0Pjx0ZXh0IHg9Ijg0IiB5PSIxMzUiPjE8L3RleHQ+PHRleHQgeD0iODQiIHk9IjE3NSI+MjwvdGV4dD4KICAgIDx0ZXh0IHg9Ijg0IiB5PSIyMTUiPjM8L3RleHQ+PHRleHQgeD0iODQiIHk9IjI1NSI+NDwvdGV4dD48dGV4dCB4PSI4NCIgeT0iMjk1Ij41PC90ZXh0PgogICAgPHRleHQgeD0iMTUwIiB5PSI4NCI+MDwvdGV4dD48dGV4dCB4PSIxNTAiIHk9IjEwNCI+MTwvdGV4dD48dGV4dCB4PSIxNTAiIHk9IjEyNCI+MjwvdGV4dD4KICAgIDx0ZXh0IHg9IjE1MCIgeT0iMTQ0Ij4zPC90ZXh0Pjx0ZXh0IHg9IjE1MCIgeT0iMTY0Ij40PC90ZXh0Pjx0ZXh0IHg9IjE1MCIgeT0iMTg0Ij41PC90ZXh0PgogICAgPHRleHQgeD0iMTUwIiB5PSIyMDQiPjY8L3RleHQ+PHRleHQgeD0iMTUwIiB5PSIyMjQiPjc8L3RleHQ+PHRleHQgeD0iMTUwIiB5PSIyNDQiPjg8L3RleHQ+CiAgICA8dGV4dCB4PSIxNTAiIHk9IjI2NCI+OTwvdGV4dD48dGV4dCB4PSIxNTAiIHk9IjI4NCI+MTA8L3RleHQ+PHRleHQgeD0iMTUwIiB5PSIzMDQiPjExPC90ZXh0PgogIDwvZz4KICA8bGluZSB4MT0iNjAiIHkxPSI5MCIgeDI9IjYwIiB5Mj0iMjkwIiBzdHJva2U9IiM4ODgiIHN0cm9rZS13aWR0aD0iMiIgbWFya2VyLWVuZD0idXJsKCNhcnJvdykiLz4KICA8dGV4dCB4PSI1MiIgeT0iMjAwIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iYXhpcyIgdHJhbnNmb3JtPSJyb3RhdGUoLTkwIDUyIDIwMCkiPnNvdXRoPC90ZXh0PgoKICA8IS0tIHRoZSBibG9jayBjbG9zZWQgYnkgdGhlIGxhc3Qgc3RyZWV0OiBnYXAgMCwgaGFsZi1yb3cgNiAtLT4KICA8cmVjdCB4PSIyODAiIHk9IjE5MCIgd2lkdGg9IjgwIiBoZWlnaHQ9IjIwIiBjbGFzcz0iYmxvY2siLz4KCiAgPCEtLSBhdmVudWUgY29sdW1uIDA6IDEtMyBhMDowLCAzLTYgYTA6MiwgNi0yIGEwOjQgLS0+CiAgPHJlY3QgeD0iMjQwIiB5PSI3MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNSIgY2xhc3M9InQiLz4KICA8bGluZSB4MT0iMjQ1IiB5MT0iMTEwIiB4Mj0iMjc1IiB5Mj0iMTEwIiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3AxIiB4PSIyNDAiIHk9IjcwIi8+PHVzZSB4bGluazpocmVmPSIjcDMiIHg9IjI0MCIgeT0iMTEwIi8+CiAgPHJlY3QgeD0iMjQwIiB5PSIxNTAiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjUiIGNsYXNzPSJ0Ii8+CiAgPGxpbmUgeDE9IjI0NSIgeTE9IjE5MCIgeDI9IjI3NSIgeTI9IjE5MCIgY2xhc3M9ImQiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwMyIgeD0iMjQwIiB5PSIxNTAiLz48dXNlIHhsaW5rOmhyZWY9IiNwNnYiIHg9IjI0MCIgeT0iMTkwIi8+CiAgPHJlY3QgeD0iMjQwIiB5PSIyMzAiIHdpZHRoPSI0MCIgaGVpZ2h0PSI4MCIgcng9IjUiIGNsYXNzPSJ0Ii8+CiAgPGxpbmUgeDE9IjI0NSIgeTE9IjI3MCIgeDI9IjI3NSIgeTI9IjI3MCIgY2xhc3M9ImQiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNnYiIHg9IjI0MCIgeT0iMjMwIi8+PHVzZSB4bGluazpocmVmPSIjcDIiIHg9IjI0MCIgeT0iMjcwIi8+CgogIDwhLS0gc3RyZWV0IDYtMCBzMDo3OiBoYWxmLXJvd3MgNy04LCBzdHJhZGRsaW5nIHRoZSA2fDYgam9pbnQgLS0+CiAgPHJlY3QgeD0iMjgwIiB5PSIyMTAiIHdpZHRoPSI4MCIgaGVpZ2h0PSI0MCIgcng9IjUiIGNsYXNzPSJ0Ii8+CiAgPGxpbmUgeDE9IjMyMCIgeTE9IjIxNSIgeDI9IjMyMCIgeTI9IjI0NSIgY2xhc3M9ImQiLz4KICA8dXNlIHhsaW5rOmhyZWY9IiNwNmgiIHg9IjI4MCIgeT0iMjEwIi8+PHVzZSB4bGluazpocmVmPSIjcDAiIHg9IjMyMCIgeT0iMjEwIi8+CgogIDwhLS0gYXZlbnVlIGNvbHVtbiAxOiA1LTAgYTE6MiAtLT4KICA8cmVjdCB4PSIzNjAiIHk9IjE1MCIgd2lkdGg9IjQwIiBoZWlnaHQ9IjgwIiByeD0iNSIgY2xhc3M9InQiLz4KICA8bGluZSB4MT0iMzY1IiB5MT0iMTkwIiB4Mj0iMzk1IiB5Mj0iMTkwIiBjbGFzcz0iZCIvPgogIDx1c2UgeGxpbms6aHJlZj0iI3A1IiB4PSIzNjAiIHk9IjE1MCIvPjx1c2UgeGxpbms6aHJlZj0iI3AwIiB4PSIzNjAiIHk9IjE5MCIvPgoKICA8IS0tIHN0cmVldCAzLTUgczA6NDogaGFsZi1yb3dzIDQtNSwgaW4gbGluZSB3aXRoIHJvdyAyIC0tPgogIDxyZWN0IHg9IjI4MCIgeT0iMTUwIiB3aWR0aD0iODAiIGhlaWdodD0iNDAiIHJ4PSI1IiBjbGFzcz0idCIvPgogIDxsaW5lIHgxPSIzMjAiIHkxPSIxNTUiIHgyPSIzMjAiIHkyPSIxODUiIGNsYXNzPSJkIi8+CiAgPHVzZSB4bGluazpocmVmPSIjcDMiIHg9IjI4MCIgeT0iMTUwIi8+PHVzZSB4bGluazpocmVmPSIjcDUiIHg9IjMyMCIgeT0iMTUwIi8+CgogIDwhLS0gb3JkZXIgdGFncyAtLT4KICA8ZyBjbGFzcz0idGFnYyI+CiAgICA8Y2lyY2xlIGN4PSIyMjQiIGN5PSI5MCIgcj0iMTAiLz48Y2lyY2xlIGN4PSIyMjQiIGN5PSIxOTAiIHI9IjEwIi8+PGNpcmNsZSBjeD0iMjI0IiBjeT0iMjcwIiByPSIxMCIvPgogICAgPGNpcmNsZSBjeD0iMzIwIiBjeT0iMjcyIiByPSIxMCIvPjxjaXJjbGUgY3g9IjQxNiIgY3k9IjE5MCIgcj0iMTAiLz48Y2lyY2xlIGN4PSIzMjAiIGN5PSIxMjgiIHI9IjEwIi8+CiAgPC9nPgogIDxnIGNsYXNzPSJ0YWciIHRleHQtYW5jaG9yPSJtaWRkbGUiPgogICAgPHRleHQgeD0iMjI0IiB5PSI5NSI+MTwvdGV4dD48dGV4dCB4PSIyMjQiIHk9IjE5NSI+MjwvdGV4dD48dGV4dCB4PSIyMjQiIHk9IjI3NSI+MzwvdGV4dD4KICAgIDx0ZXh0IHg9IjMyMCIgeT0iMjc3Ij40PC90ZXh0Pjx0ZXh0IHg9IjQxNiIgeT0iMTk1Ij41PC90ZXh0Pjx0ZXh0IHg9IjMyMCIgeT0iMTMzIj42PC90ZXh0PgogIDwvZz4KCiAgPCEtLSBsZWdlbmQgLS0+CiAgPGNpcmNsZSBjeD0iNTAiIGN5PSIzNDUiIHI9IjEwIiBjbGFzcz0idGFnYyIvPjx0ZXh0IHg9IjUwIiB5PSIzNTAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJ0YWciPjE8L3RleHQ+CiAgPHRleHQgeD0iNzAiIHk9IjM1MCIgY2xhc3M9Im1vbm8iPjEtMyBhMDowPC90ZXh0PgogIDx0ZXh0IHg9IjE2MCIgeT0iMzUwIiBjbGFzcz0ibGVnIj50aGUgZmlyc3QgZG9taW5vOiBhdmVudWUgY29sdW1uIDAsIHJvd3MgMOKAkzE8L3RleHQ+CiAgPGNpcmNsZSBjeD0iNTAiIGN5PSIzNjciIHI9IjEwIiBjbGFzcz0idGFnYyIvPjx0ZXh0IHg9IjUwIiB5PSIzNzIiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJ0YWciPjI8L3RleHQ+CiAgPHRleHQgeD0iNzAiIHk9IjM3MiIgY2xhc3M9Im1vbm8iPjMtNiBhMDoyPC90ZXh0PgogIDx0ZXh0IHg9IjE2MCIgeT0iMzcyIiBjbGFzcz0ibGVnIj5leHRlbmRzIHRoZSBhdmVudWU6IGl0cyAzIG1lZXRzIHRoZSAzPC90ZXh0PgogIDxjaXJjbGUgY3g9IjUwIiBjeT0iMzg5IiByPSIxMCIgY2xhc3M9InRhZ2MiLz48dGV4dCB4PSI1MCIgeT0iMzk0IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0idGFnIj4zPC90ZXh0PgogIDx0ZXh0IHg9IjcwIiB5PSIzOTQiIGNsYXNzPSJtb25vIj42LTIgYTA6NDwvdGV4dD4KICA8dGV4dCB4PSIxNjAiIHk9IjM5NCIgY2xhc3M9ImxlZyI+ZXh0ZW5kcyBpdCBhZ2FpbjwvdGV4dD4KICA8Y2lyY2xlIGN4PSI1MCIgY3k9IjQxMSIgcj0iMTAiIGNsYXNzPSJ0YWdjIi8+PHRleHQgeD0iNTAiIHk9IjQxNiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9InRhZyI+NDwvdGV4dD4KICA8dGV4dCB4PSI3MCIgeT0iNDE2IiBjbGFzcz0ibW9ubyI+Ni0wIHMwOjc8L3RleHQ+CiAgPHRleHQgeD0iMTYwIiB5PSI0MTYiIGNsYXNzPSJsZWciPnN0cmVldCBhdCBhbiBvZGQgaGFsZi1yb3c6IGl0IHN0cmFkZGxlcyB0aGU8L3RleHQ+CiAgPHRleHQgeD0iMTYwIiB5PSI0MzYiIGNsYXNzPSJsZWciPjZ8NiBqb2ludCwgc28gaXQgdG91Y2hlcyB0d28gYXZlbnVlIGRvbWlub2VzPC90ZXh0PgogIDxjaXJjbGUgY3g9IjUwIiBjeT0iNDUzIiByPSIxMCIgY2xhc3M9InRhZ2MiLz48dGV4dCB4PSI1MCIgeT0iNDU4IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0idGFnIj41PC90ZXh0PgogIDx0ZXh0IHg9IjcwIiB5PSI0NTgiIGNsYXNzPSJtb25vIj41LTAgYTE6MjwvdGV4dD4KICA8dGV4dCB4PSIxNjAiIHk9IjQ1OCIgY2xhc3M9ImxlZyI+YSBuZXcgYXZlbnVlOiB0b3VjaGluZyBvbmUgc3RyZWV0IGlzIGVub3VnaDwvdGV4dD4KICA8Y2lyY2xlIGN4PSI1MCIgY3k9IjQ3NSIgcj0iMTAiIGNsYXNzPSJ0YWdjIi8+PHRleHQgeD0iNTAiIHk9IjQ4MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9InRhZyI+NjwvdGV4dD4KICA8dGV4dCB4PSI3MCIgeT0iNDgwIiBjbGFzcz0ibW9ubyI+My01IHMwOjQ8L3RleHQ+CiAgPHRleHQgeD0iMTYwIiB5PSI0ODAiIGNsYXNzPSJsZWciPnN0cmVldCBhdCBhbiBldmVuIGhhbGYtcm93LCBpbiBsaW5lIHdpdGggcm93IDI7PC90ZXh0PgogIDx0ZXh0IHg9IjE2MCIgeT0iNTAwIiBjbGFzcz0ibGVnIj5pdCBjbG9zZXMgYSBibG9jayAoZ3JlZW4pOiAxIHBvaW50PC90ZXh0PgogIDx0ZXh0IHg9IjQwIiB5PSI1MzYiIGNsYXNzPSJsZWciPkF2ZW51ZSBjb2x1bW4gYSwgZ2FwIGcgKGJldHdlZW4gY29sdW1ucyBnIGFuZCBnICsgMSkuIEF2ZW51ZSBzcXVhcmVzIGFyZTwvdGV4dD4KICA8dGV4dCB4PSI0MCIgeT0iNTU0IiBjbGFzcz0ibGVnIj5yb3dzOyBlYWNoIHJvdyBpcyB0d28gaGFsZi1yb3dzLCBhbmQgc3RyZWV0cyBhcmUgcGxhY2VkIGJ5IGhhbGYtcm93LjwvdGV4dD4KPC9zdmc+Cg==" alt="Avenue columns, gaps, rows and half-rows, with two streets and a block"></p>
<p>Dominoes lie on a grid of unit squares; each half of a domino covers one square.</p>
<ul>
<li><strong>Avenues</strong> run north–south. An avenue domino stands upright in an <strong>avenue column</strong>. Columns are
numbered by an integer <code>a</code> (…, −1, 0, 1, …). The first avenue is column 0.</li>
<li>Between avenue column <code>g</code> and column <code>g + 1</code> lies <strong>gap</strong> <code>g</code>, exactly two squares wide: the
length of one domino.</li>
<li><strong>Streets</strong> run east–west. A street is a domino lying crosswise in a gap, spanning it from one
avenue column to the next: its west half faces column <code>g</code>, its east half faces column <code>g + 1</code>.</li>
<li>Avenue dominoes never stand in a gap and streets never lie in an avenue column. So every street
is between two avenues, as in a city.</li>
<li><strong>Rows</strong> number the squares of a column from north to south (rows grow southward). The avenue
domino at <code>(a, r)</code> covers rows <code>r</code> (its north half) and <code>r + 1</code> (its south half) of column <code>a</code>.</li>
<li>A street is one square tall, but it need not line up with the squares of the avenues beside it:
like a real domino pushed against the side of a line of dominoes, it may sit half a square lower,
across the joint between two avenue squares. So streets are placed by <strong>half-row</strong>: row <code>r</code> is
made of half-rows <code>2r</code> (its north half) and <code>2r + 1</code> (its south half), and the street at
<code>(g, s)</code> covers half-rows <code>s</code> and <code>s + 1</code> of gap <code>g</code>.<ul>
<li>For an <strong>even</strong> <code>s</code>, the street lines up with row <code>s / 2</code>: each of its ends faces exactly one
square of the neighbouring column.</li>
<li>For an <strong>odd</strong> <code>s</code>, the street straddles rows <code>(s − 1) / 2</code> and <code>(s + 1) / 2</code>: each of its ends
faces the lower half of one square and the upper half of the next.</li>
</ul>
</li>
</ul>
<p>Every position is written with these coordinates: <code>a0:2</code> is the avenue domino in column 0 whose
north half is in row 2; <code>s0:7</code> is the street in gap 0 whose top edge is at half-row 7 (see
<a href="#writing-actions-down">notation</a>).</p>
<h2 id="touching-and-matching">Touching and matching</h2>
<p>Two dominoes <strong>touch</strong> where a half of one shares a stretch of edge with a half of the other.
Sharing half a square&#39;s edge is enough; meeting only at a corner is not touching.</p>
<p>The original rule is <em>&quot;domino numbers must be matched to all bordering dominoes&quot;</em>: <strong>every pair of
touching halves must show the same number.</strong> In the grid this means:</p>
<ul>
<li><strong>End to end in an avenue.</strong> The south half of the domino at <code>(a, r)</code> touches the north half of
a domino at <code>(a, r + 2)</code>; they must match.</li>
<li><strong>Street ends against avenues.</strong> A street&#39;s west half touches every occupied avenue square it
faces in column <code>g</code> (one square for even <code>s</code>, up to two for odd <code>s</code>) and must show the number of
each; likewise its east half in column <code>g + 1</code>. A street straddling the joint of two avenue
dominoes touches both of them with one end; they show the same number there, because they match
each other end to end.</li>
<li><strong>A street straddling the middle of an avenue domino</strong> touches both halves of that one domino
with one end. That is possible only if the domino is a double (both halves show the same number);
against any other domino the two demands differ and the spot is refused.</li>
<li><strong>Streets in the same gap</strong> at half-rows <code>s</code> and <code>t</code> touch when <code>|s − t| = 2</code> (edge to edge) and
overlap when <code>|s − t| = 1</code>. Streets in different gaps never touch, and neither do avenue dominoes
in different columns: a gap or a column always lies between them.</li>
<li><strong>An avenue domino beside a street</strong> touches the street&#39;s end wherever they share an edge, in
the gap on either side of its column. For an avenue domino at <code>(a, r)</code>, its north half must
match every street end it touches at half-rows <code>2r</code> or <code>2r + 1</code>, its south half every street
end at half-rows <code>2r + 2</code> or <code>2r + 3</code>.</li>
</ul>
<p>When a domino is placed, the player chooses which way round it goes: for an avenue domino, which
number is north; for a street, which number is west.</p>
<h2 id="where-a-domino-may-go">Where a domino may go</h2>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNDIwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjQyMCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5XaGVyZSBhIHN0cmVldCBtYXkgZ286IGl0IG11c3QgdG91Y2ggdHdvIGF2ZW51ZSBkb21pbm9lcyBhbmQgbm8gc3RyZWV0PC90aXRsZT4KICA8ZGVmcz4KICAgIDxzdHlsZT4KICAgICAgLnQgeyBmaWxsOiAjZmZmZGY2OyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMS42OyB9CiAgICAgIC5nb29kIHsgZmlsbDogI2U2ZjVlOTsgc3Ryb2tlOiAjMmI4YTNlOyBzdHJva2Utd2lkdGg6IDIuMjsgc3Ryb2tlLWRhc2hhcnJheTogNSAzOyB9CiAgICAgIC5iYWQgeyBmaWxsOiAjZmRlOGU4OyBzdHJva2U6ICNjMDM5MmI7IHN0cm9rZS13aWR0aDogMi4yOyBzdHJva2UtZGFzaGFycmF5OiA1IDM7IH0KICAgICAgLmQgeyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMS4yOyB9CiAgICAgIC5waXAgeyBmaWxsOiAjMWQxZDFkOyB9CiAgICAgIC5jb2xiZyB7IGZpbGw6ICNmNGVhZDY7IH0KICAgICAgLmhlYWQgeyBmb250LXNpemU6IDE2cHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjMjIyOyB9CiAgICAgIC5leCB7IGZvbnQtc2l6ZTogMTRweDsgZmlsbDogIzQ0NDsgfQogICAgICAuY29vcmQgeyBmb250LXNpemU6IDEzcHg7IGZpbGw6ICM1NTU7IGZvbnQtZmFtaWx5OiAiRGVqYVZ1IFNhbnMgTW9ubyIsIE1lbmxvLCBDb25zb2xhcywgbW9ub3NwYWNlOyB9CiAgICAgIC5va20geyBmb250LXNpemU6IDIycHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjMmI4YTNlOyB9CiAgICAgIC5ub20geyBmb250LXNpemU6IDIycHg7IGZvbnQtd2VpZ2h0OiBib2xkOyBmaWxsOiAjYzAzOTJiOyB9CiAgICA8L3N0eWxlPgogICAgPCEtLSBwaXBzIG9mIG9uZSBoYWxmLCBmb3IgYSA0MCB4IDQwIGhhbGYgKHNjYWxlZCB0byAzMCBoZXJlKTogdk4gc3RhbmRzIG5vcnRoLXNvdXRoLCBoTiBsaWVzIGVhc3Qtd2VzdCAtLT4KICAgIDxnIGlkPSJ2MCIgY2xhc3M9InBpcCI+PC9nPgogICAgPGcgaWQ9InYxIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSI0LjIiLz48L2c+CiAgICA8ZyBpZD0idjIiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJ2MyIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9InY0IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjI5IiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSI0LjIiLz48L2c+CiAgICA8ZyBpZD0idjUiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJ2NiIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTIiIGN5PSIxMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTIiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTIiIGN5PSIzMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjgiIGN5PSIxMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjgiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjgiIGN5PSIzMCIgcj0iMy45Ii8+PC9nPgogICAgPGcgaWQ9InY3IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMiIgY3k9IjEwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMiIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMiIgY3k9IjMwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOCIgY3k9IjEwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOCIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOCIgY3k9IjMwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSIzLjkiLz48L2c+CiAgICA8ZyBpZD0idjgiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMTEiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjkiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOSIvPjwvZz4KICAgIDxnIGlkPSJ2OSIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyOSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy45Ii8+PC9nPgogICAgPGcgaWQ9ImgwIiBjbGFzcz0icGlwIj48L2c+CiAgICA8ZyBpZD0iaDEiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJoMiIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9ImgzIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSI0LjIiLz48L2c+CiAgICA8ZyBpZD0iaDQiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJoNSIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9Img2IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMCIgY3k9IjEyIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjEyIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIzMCIgY3k9IjEyIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMCIgY3k9IjI4IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjI4IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIzMCIgY3k9IjI4IiByPSIzLjkiLz48L2c+CiAgICA8ZyBpZD0iaDciIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjEwIiBjeT0iMTIiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMTIiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjMwIiBjeT0iMTIiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjEwIiBjeT0iMjgiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjgiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjMwIiBjeT0iMjgiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOSIvPjwvZz4KICAgIDxnIGlkPSJoOCIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyOSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy45Ii8+PC9nPgogICAgPGcgaWQ9Img5IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjI5IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjI5IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjkiLz48L2c+CiAgPC9kZWZzPgoKICA8dGV4dCB4PSIxMDYuNSIgeT0iMzIiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJoZWFkIj5PbmUgYXZlbnVlIGRvbWlubzwvdGV4dD4KICA8cmVjdCB4PSI0NyIgeT0iNzAiIHdpZHRoPSIzMCIgaGVpZ2h0PSIyNDAiIGNsYXNzPSJjb2xiZyIvPgogIDxyZWN0IHg9IjEzNyIgeT0iNzAiIHdpZHRoPSIzMCIgaGVpZ2h0PSIyNDAiIGNsYXNzPSJjb2xiZyIvPgogIDxyZWN0IHg9IjQ3IiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNTEiIHkxPSIxMDAiIHgyPSI3MyIgeTI9IjEwMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2MSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDcsNzApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjMiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQ3LDEwMCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI0NyIgeT0iMTMwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI1MSIgeTE9IjE2MCIgeDI9IjczIiB5Mj0iMTYwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YzIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0NywxMzApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjYiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQ3LDE2MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI3NyIgeT0iMTYwLjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJiYWQiLz48bGluZSB4MT0iMTA3IiB5MT0iMTY0LjAiIHgyPSIxMDciIHkyPSIxODYuMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiNoNiIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNzcsMTYwLjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjaDAiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEwNywxNjAuMCkgc2NhbGUoMC43NSkiLz4KICA8dGV4dCB4PSIxODMiIHk9IjE4My4wIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0ibm9tIj7inJc8L3RleHQ+CiAgPHRleHQgeD0iNDIiIHk9IjE4MC4wIiB0ZXh0LWFuY2hvcj0iZW5kIiBjbGFzcz0iY29vcmQiPnMwOjY8L3RleHQ+CiAgPHRleHQgeD0iMTA2LjUiIHk9IjM0MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij42LTAgYXQgczA6NiBmYWNlcyBvbmx5PC90ZXh0PgogIDx0ZXh0IHg9IjEwNi41IiB5PSIzNTgiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+dGhlIDYgb2YgMy02OiBpdCB0b3VjaGVzPC90ZXh0PgogIDx0ZXh0IHg9IjEwNi41IiB5PSIzNzYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+b25lIGF2ZW51ZSBkb21pbm8sPC90ZXh0PgogIDx0ZXh0IHg9IjEwNi41IiB5PSIzOTQiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+c28gaXQgaXMgcmVmdXNlZDwvdGV4dD4KICA8dGV4dCB4PSIzMTkuNSIgeT0iMzIiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJoZWFkIj5Ud28sIGF0IGEgam9pbnQ8L3RleHQ+CiAgPHJlY3QgeD0iMjYwIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjI0MCIgY2xhc3M9ImNvbGJnIi8+CiAgPHJlY3QgeD0iMzUwIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjI0MCIgY2xhc3M9ImNvbGJnIi8+CiAgPHJlY3QgeD0iMjYwIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iMjY0IiB5MT0iMTAwIiB4Mj0iMjg2IiB5Mj0iMTAwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YxIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgyNjAsNzApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjMiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDI2MCwxMDApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iMjYwIiB5PSIxMzAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjI2NCIgeTE9IjE2MCIgeDI9IjI4NiIgeTI9IjE2MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2MyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMjYwLDEzMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2NiIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMjYwLDE2MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSIyNjAiIHk9IjE5MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iMjY0IiB5MT0iMjIwIiB4Mj0iMjg2IiB5Mj0iMjIwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y2IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgyNjAsMTkwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3YyIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgyNjAsMjIwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjI5MCIgeT0iMTc1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJnb29kIi8+PGxpbmUgeDE9IjMyMCIgeTE9IjE3OS4wIiB4Mj0iMzIwIiB5Mj0iMjAxLjAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjaDYiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDI5MCwxNzUuMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiNoMCIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMzIwLDE3NS4wKSBzY2FsZSgwLjc1KSIvPgogIDx0ZXh0IHg9IjM5NiIgeT0iMTk4LjAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJva20iPuKckzwvdGV4dD4KICA8dGV4dCB4PSIyNTUiIHk9IjE5NS4wIiB0ZXh0LWFuY2hvcj0iZW5kIiBjbGFzcz0iY29vcmQiPnMwOjc8L3RleHQ+CiAgPHRleHQgeD0iMzE5LjUiIHk9IjM0MCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij5hZnRlciA2LTIgZXh0ZW5kcyB0aGU8L3RleHQ+CiAgPHRleHQgeD0iMzE5LjUiIHk9IjM1OCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij5hdmVudWUsIDYtMCBhdCBzMDo3PC90ZXh0PgogIDx0ZXh0IHg9IjMxOS41IiB5PSIzNzYiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+c3RyYWRkbGVzIHRoZSA2fDYgam9pbnQ6PC90ZXh0PgogIDx0ZXh0IHg9IjMxOS41IiB5PSIzOTQiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+dHdvIGRvbWlub2VzLCBsZWdhbDwvdGV4dD4KICA8dGV4dCB4PSI1MzIuNSIgeT0iMzIiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJoZWFkIj5ObyBzdHJlZXQgdG91Y2hpbmc8L3RleHQ+CiAgPHJlY3QgeD0iNDczIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjI0MCIgY2xhc3M9ImNvbGJnIi8+CiAgPHJlY3QgeD0iNTYzIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjI0MCIgY2xhc3M9ImNvbGJnIi8+CiAgPHJlY3QgeD0iNDczIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNDc3IiB5MT0iMTAwIiB4Mj0iNDk5IiB5Mj0iMTAwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YwIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0NzMsNzApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjEiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQ3MywxMDApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNDczIiB5PSIxMzAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjQ3NyIgeTE9IjE2MCIgeDI9IjQ5OSIgeTI9IjE2MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2MSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDczLDEzMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2MiIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDczLDE2MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI0NzMiIHk9IjE5MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNDc3IiB5MT0iMjIwIiB4Mj0iNDk5IiB5Mj0iMjIwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YyIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0NzMsMTkwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3YzIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0NzMsMjIwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjQ3MyIgeT0iMjUwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI0NzciIHkxPSIyODAiIHgyPSI0OTkiIHkyPSIyODAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjMiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQ3MywyNTApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjQiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQ3MywyODApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNTYzIiB5PSI3MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNTY3IiB5MT0iMTAwIiB4Mj0iNTg5IiB5Mj0iMTAwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y2IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1NjMsNzApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjUiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDU2MywxMDApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNTYzIiB5PSIxMzAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjU2NyIgeTE9IjE2MCIgeDI9IjU4OSIgeTI9IjE2MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2NSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTYzLDEzMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2NyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTYzLDE2MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI1NjMiIHk9IjE5MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNTY3IiB5MT0iMjIwIiB4Mj0iNTg5IiB5Mj0iMjIwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y3IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1NjMsMTkwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y4IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1NjMsMjIwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjU2MyIgeT0iMjUwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI1NjciIHkxPSIyODAiIHgyPSI1ODkiIHkyPSIyODAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjgiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDU2MywyNTApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjkiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDU2MywyODApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNTAzIiB5PSIxMzAuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjMwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNTMzIiB5MT0iMTM0LjAiIHgyPSI1MzMiIHkyPSIxNTYuMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiNoMSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTAzLDEzMC4wKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI2g1IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1MzMsMTMwLjApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNTAzIiB5PSIxNjAuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjMwIiByeD0iNCIgY2xhc3M9ImJhZCIvPjxsaW5lIHgxPSI1MzMiIHkxPSIxNjQuMCIgeDI9IjUzMyIgeTI9IjE4Ni4wIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI2gyIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1MDMsMTYwLjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjaDciIHRyYW5zZm9ybT0idHJhbnNsYXRlKDUzMywxNjAuMCkgc2NhbGUoMC43NSkiLz4KICA8dGV4dCB4PSI2MDkiIHk9IjE4My4wIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0ibm9tIj7inJc8L3RleHQ+CiAgPHRleHQgeD0iNDY4IiB5PSIxODAuMCIgdGV4dC1hbmNob3I9ImVuZCIgY2xhc3M9ImNvb3JkIj5zMDo2PC90ZXh0PgogIDxyZWN0IHg9IjUwMyIgeT0iMjIwLjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJnb29kIi8+PGxpbmUgeDE9IjUzMyIgeTE9IjIyNC4wIiB4Mj0iNTMzIiB5Mj0iMjQ2LjAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjaDMiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDUwMywyMjAuMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiNoOCIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTMzLDIyMC4wKSBzY2FsZSgwLjc1KSIvPgogIDx0ZXh0IHg9IjYwOSIgeT0iMjQzLjAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJva20iPuKckzwvdGV4dD4KICA8dGV4dCB4PSI0NjgiIHk9IjI0MC4wIiB0ZXh0LWFuY2hvcj0iZW5kIiBjbGFzcz0iY29vcmQiPnMwOjEwPC90ZXh0PgogIDx0ZXh0IHg9IjUzMi41IiB5PSIzNDAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+d2l0aCAxLTUgYXQgczA6NCwgMi03PC90ZXh0PgogIDx0ZXh0IHg9IjUzMi41IiB5PSIzNTgiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+YXQgczA6NiB3b3VsZCBsaWUgZWRnZTwvdGV4dD4KICA8dGV4dCB4PSI1MzIuNSIgeT0iMzc2IiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iZXgiPnRvIGVkZ2Ugd2l0aCBpdDogcmVmdXNlZDs8L3RleHQ+CiAgPHRleHQgeD0iNTMyLjUiIHk9IjM5NCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij4zLTggYXQgczA6MTAgaXMgbGVnYWw8L3RleHQ+CiAgPGxpbmUgeDE9IjIxMyIgeTE9IjUwIiB4Mj0iMjEzIiB5Mj0iNDAwIiBzdHJva2U9IiNlMmUyZTIiIHN0cm9rZS13aWR0aD0iMS41Ii8+CiAgPGxpbmUgeDE9IjQyNiIgeTE9IjUwIiB4Mj0iNDI2IiB5Mj0iNDAwIiBzdHJva2U9IiNlMmUyZTIiIHN0cm9rZS13aWR0aD0iMS41Ii8+Cjwvc3ZnPgo=" alt="A street must touch two avenue dominoes and no street"></p>
<p>A placement is legal when its squares are free, every touching pair of halves matches, and:</p>
<ol>
<li><strong>The first domino</strong> goes at <code>a0:0</code>, either way up. It starts the first avenue.</li>
<li><strong>The second domino</strong> must extend that avenue end to end (at <code>a0:-2</code> or <code>a0:2</code>). No separate
rule is needed: with one domino on the table, no street can touch two avenue dominoes, and an
avenue domino must touch something.</li>
<li><strong>An avenue domino</strong> must touch at least one other domino: an avenue domino end to end, or a
street&#39;s end. A brand-new avenue therefore needs only to border one street.</li>
<li><strong>The avenue limit.</strong> Once an avenue column holds <strong>7 dominoes</strong>, it is <em>full</em>: no domino may
be placed in it north of its northernmost square or south of its southernmost square. The 7
need not be connected (a column can have a &quot;northern&quot; and a &quot;southern&quot; part), and holes inside
the column may still be filled, so a full column can end up with more than 7 dominoes.</li>
<li><strong>A street</strong> must touch <strong>at least two different avenue dominoes</strong> (two at a joint on one side,
or one on each side, or more) and must touch <strong>no street</strong>. A street that would overlap another
street (half-rows one apart) is refused because its squares are taken; one that would lie edge
to edge with another (half-rows two apart) is refused because streets may not touch.</li>
</ol>
<h2 id="blocks-and-points">Blocks and points</h2>
<p><img src="data:image/svg+xml;base64,PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4KPHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIgogICAgIHZpZXdCb3g9IjAgMCA2NDAgNjkwIiB3aWR0aD0iNjQwIiBoZWlnaHQ9IjY5MCIgZm9udC1mYW1pbHk9IkhlbHZldGljYSwgQXJpYWwsIHNhbnMtc2VyaWYiPgogIDx0aXRsZT5TdHJlZXRzIGFuZCBBdmVudWVzIGJsb2NrczogY2xvc2luZyBhIGJsb2NrICgrMSksIGRpdmlkaW5nIG9uZSBpbiB0d28gKCsyKSwgc2hyaW5raW5nIG9uZSAoKzApPC90aXRsZT4KICA8ZGVmcz4KICAgIDxzdHlsZT4KICAgICAgLnQgeyBmaWxsOiAjZmZmZGY2OyBzdHJva2U6ICMyYjJiMmI7IHN0cm9rZS13aWR0aDogMS42OyB9CiAgICAgIC5uZXcgeyBmaWxsOiAjZmZmMGQ5OyBzdHJva2U6ICNlMDdiMDA7IHN0cm9rZS13aWR0aDogMi42OyB9CiAgICAgIC5kIHsgc3Ryb2tlOiAjMmIyYjJiOyBzdHJva2Utd2lkdGg6IDEuMjsgfQogICAgICAucGlwIHsgZmlsbDogIzFkMWQxZDsgfQogICAgICAuYjEgeyBmaWxsOiAjYmZlM2M0OyB9CiAgICAgIC5iMiB7IGZpbGw6ICNjNGQ2ZjM7IH0KICAgICAgLmNvbGJnIHsgZmlsbDogI2Y0ZWFkNjsgfQogICAgICAuaGVhZCB7IGZvbnQtc2l6ZTogMTZweDsgZm9udC13ZWlnaHQ6IGJvbGQ7IGZpbGw6ICMyMjI7IH0KICAgICAgLmhlYWQyIHsgZm9udC1zaXplOiAxNHB4OyBmb250LXdlaWdodDogYm9sZDsgZmlsbDogIzMzMzsgfQogICAgICAuZXggeyBmb250LXNpemU6IDE0cHg7IGZpbGw6ICM0NDQ7IH0KICAgIDwvc3R5bGU+CiAgICA8IS0tIHBpcHMgb2Ygb25lIGhhbGYsIGZvciBhIDQwIHggNDAgaGFsZiAoc2NhbGVkIHRvIDMwIGhlcmUpOiB2TiBzdGFuZHMgbm9ydGgtc291dGgsIGhOIGxpZXMgZWFzdC13ZXN0IC0tPgogICAgPGcgaWQ9InYwIiBjbGFzcz0icGlwIj48L2c+CiAgICA8ZyBpZD0idjEiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJ2MiIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9InYzIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSI0LjIiLz48L2c+CiAgICA8ZyBpZD0idjQiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJ2NSIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9InY2IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMiIgY3k9IjEwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMiIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMiIgY3k9IjMwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOCIgY3k9IjEwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOCIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOCIgY3k9IjMwIiByPSIzLjkiLz48L2c+CiAgICA8ZyBpZD0idjciIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjEyIiBjeT0iMTAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjEyIiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjEyIiBjeT0iMzAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMTAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI4IiBjeT0iMzAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOSIvPjwvZz4KICAgIDxnIGlkPSJ2OCIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyMCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyOSIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iMy45Ii8+PC9nPgogICAgPGcgaWQ9InY5IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjI5IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjI5IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjkiLz48L2c+CiAgICA8ZyBpZD0iaDAiIGNsYXNzPSJwaXAiPjwvZz4KICAgIDxnIGlkPSJoMSIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9ImgyIiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSI0LjIiLz48L2c+CiAgICA8ZyBpZD0iaDMiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjQuMiIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjQuMiIvPjwvZz4KICAgIDxnIGlkPSJoNCIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTEiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIxMSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMTEiIGN5PSIyOSIgcj0iNC4yIi8+PGNpcmNsZSBjeD0iMjkiIGN5PSIyOSIgcj0iNC4yIi8+PC9nPgogICAgPGcgaWQ9Img1IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjExIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjIwIiByPSI0LjIiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjI5IiByPSI0LjIiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSI0LjIiLz48L2c+CiAgICA8ZyBpZD0iaDYiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjEwIiBjeT0iMTIiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMTIiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjMwIiBjeT0iMTIiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjEwIiBjeT0iMjgiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjgiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjMwIiBjeT0iMjgiIHI9IjMuOSIvPjwvZz4KICAgIDxnIGlkPSJoNyIgY2xhc3M9InBpcCI+PGNpcmNsZSBjeD0iMTAiIGN5PSIxMiIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIxMiIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMzAiIGN5PSIxMiIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMTAiIGN5PSIyOCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyOCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMzAiIGN5PSIyOCIgcj0iMy45Ii8+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMy45Ii8+PC9nPgogICAgPGcgaWQ9Img4IiBjbGFzcz0icGlwIj48Y2lyY2xlIGN4PSIxMSIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjExIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjIwIiByPSIzLjkiLz48Y2lyY2xlIGN4PSIxMSIgY3k9IjI5IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyMCIgY3k9IjI5IiByPSIzLjkiLz48Y2lyY2xlIGN4PSIyOSIgY3k9IjI5IiByPSIzLjkiLz48L2c+CiAgICA8ZyBpZD0iaDkiIGNsYXNzPSJwaXAiPjxjaXJjbGUgY3g9IjExIiBjeT0iMTEiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMTEiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMTEiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjAiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjExIiBjeT0iMjkiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjIwIiBjeT0iMjkiIHI9IjMuOSIvPjxjaXJjbGUgY3g9IjI5IiBjeT0iMjkiIHI9IjMuOSIvPjwvZz4KICA8L2RlZnM+CgogIDwhLS0gQ2xvc2luZzogMy04IHMwOjExIGNsb3NlcyB0aGUgc3BhY2UgYmV0d2VlbiB0d28gc3RyZWV0cyAtLT4KICA8dGV4dCB4PSIxNjAiIHk9IjMwIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+Q2xvc2luZzogKzE8L3RleHQ+CiAgPHJlY3QgeD0iMTMwIiB5PSIxMzUuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjkwLjAiIGNsYXNzPSJiMSIvPgogIDxyZWN0IHg9IjEwMCIgeT0iNjAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjEwNCIgeTE9IjkwIiB4Mj0iMTI2IiB5Mj0iOTAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjAiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEwMCw2MCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2MSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTAwLDkwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjEwMCIgeT0iMTIwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSIxMDQiIHkxPSIxNTAiIHgyPSIxMjYiIHkyPSIxNTAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjEiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEwMCwxMjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjIiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEwMCwxNTApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iMTAwIiB5PSIxODAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjEwNCIgeTE9IjIxMCIgeDI9IjEyNiIgeTI9IjIxMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2MiIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTAwLDE4MCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2MyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTAwLDIxMCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSIxMDAiIHk9IjI0MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iMTA0IiB5MT0iMjcwIiB4Mj0iMTI2IiB5Mj0iMjcwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YzIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxMDAsMjQwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y0IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxMDAsMjcwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjE5MCIgeT0iNjAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjE5NCIgeTE9IjkwIiB4Mj0iMjE2IiB5Mj0iOTAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjYiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDE5MCw2MCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2NSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTkwLDkwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjE5MCIgeT0iMTIwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSIxOTQiIHkxPSIxNTAiIHgyPSIyMTYiIHkyPSIxNTAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjUiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDE5MCwxMjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjciIHRyYW5zZm9ybT0idHJhbnNsYXRlKDE5MCwxNTApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iMTkwIiB5PSIxODAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjE5NCIgeTE9IjIxMCIgeDI9IjIxNiIgeTI9IjIxMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2NyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTkwLDE4MCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2OCIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTkwLDIxMCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSIxOTAiIHk9IjI0MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iMTk0IiB5MT0iMjcwIiB4Mj0iMjE2IiB5Mj0iMjcwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y4IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxOTAsMjQwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y5IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxOTAsMjcwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjEzMCIgeT0iMTA1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjE2MCIgeTE9IjEwOS4wIiB4Mj0iMTYwIiB5Mj0iMTMxLjAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjaDEiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEzMCwxMDUuMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiNoNSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTYwLDEwNS4wKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjEzMCIgeT0iMjI1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJuZXciLz48bGluZSB4MT0iMTYwIiB5MT0iMjI5LjAiIHgyPSIxNjAiIHkyPSIyNTEuMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiNoMyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTMwLDIyNS4wKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI2g4IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxNjAsMjI1LjApIHNjYWxlKDAuNzUpIi8+CiAgPHRleHQgeD0iMTYwIiB5PSIzMzAiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+My04IHMwOjExIHNodXRzIHRoZSBzcGFjZTwvdGV4dD4KICA8dGV4dCB4PSIxNjAiIHk9IjM0OCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij51bmRlciB0aGUgc3RyZWV0IDEtNTogb25lIGJsb2NrPC90ZXh0PgogIDwhLS0gRGl2aWRpbmc6IDItNyBzMDo3IHNwbGl0cyB0aGF0IGJsb2NrIGluIHR3byAtLT4KICA8dGV4dCB4PSI0ODAiIHk9IjMwIiB0ZXh0LWFuY2hvcj0ibWlkZGxlIiBjbGFzcz0iaGVhZCI+RGl2aWRpbmc6ICsyPC90ZXh0PgogIDxyZWN0IHg9IjQ1MCIgeT0iMTM1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMC4wIiBjbGFzcz0iYjEiLz4KICA8cmVjdCB4PSI0NTAiIHk9IjE5NS4wIiB3aWR0aD0iNjAiIGhlaWdodD0iMzAuMCIgY2xhc3M9ImIyIi8+CiAgPHJlY3QgeD0iNDIwIiB5PSI2MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNDI0IiB5MT0iOTAiIHgyPSI0NDYiIHkyPSI5MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2MCIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDIwLDYwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3YxIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MjAsOTApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNDIwIiB5PSIxMjAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjQyNCIgeTE9IjE1MCIgeDI9IjQ0NiIgeTI9IjE1MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2MSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDIwLDEyMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2MiIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDIwLDE1MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI0MjAiIHk9IjE4MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNDI0IiB5MT0iMjEwIiB4Mj0iNDQ2IiB5Mj0iMjEwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YyIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MjAsMTgwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3YzIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MjAsMjEwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjQyMCIgeT0iMjQwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI0MjQiIHkxPSIyNzAiIHgyPSI0NDYiIHkyPSIyNzAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjMiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQyMCwyNDApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjQiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQyMCwyNzApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNTEwIiB5PSI2MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNTE0IiB5MT0iOTAiIHgyPSI1MzYiIHkyPSI5MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2NiIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTEwLDYwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y1IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1MTAsOTApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNTEwIiB5PSIxMjAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjUxNCIgeTE9IjE1MCIgeDI9IjUzNiIgeTI9IjE1MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2NSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTEwLDEyMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2NyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNTEwLDE1MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI1MTAiIHk9IjE4MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNTE0IiB5MT0iMjEwIiB4Mj0iNTM2IiB5Mj0iMjEwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y3IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1MTAsMTgwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y4IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg1MTAsMjEwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjUxMCIgeT0iMjQwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI1MTQiIHkxPSIyNzAiIHgyPSI1MzYiIHkyPSIyNzAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjgiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDUxMCwyNDApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjkiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDUxMCwyNzApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNDUwIiB5PSIxMDUuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjMwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNDgwIiB5MT0iMTA5LjAiIHgyPSI0ODAiIHkyPSIxMzEuMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiNoMSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDUwLDEwNS4wKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI2g1IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0ODAsMTA1LjApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNDUwIiB5PSIyMjUuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjMwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iNDgwIiB5MT0iMjI5LjAiIHgyPSI0ODAiIHkyPSIyNTEuMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiNoMyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoNDUwLDIyNS4wKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI2g4IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0ODAsMjI1LjApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNDUwIiB5PSIxNjUuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjMwIiByeD0iNCIgY2xhc3M9Im5ldyIvPjxsaW5lIHgxPSI0ODAiIHkxPSIxNjkuMCIgeDI9IjQ4MCIgeTI9IjE5MS4wIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI2gyIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0NTAsMTY1LjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjaDciIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQ4MCwxNjUuMCkgc2NhbGUoMC43NSkiLz4KICA8dGV4dCB4PSI0ODAiIHk9IjMzMCIgdGV4dC1hbmNob3I9Im1pZGRsZSIgY2xhc3M9ImV4Ij4yLTcgczA6NywgaW5zaWRlIHRoZSBibG9jayBhbmQ8L3RleHQ+CiAgPHRleHQgeD0iNDgwIiB5PSIzNDgiIHRleHQtYW5jaG9yPSJtaWRkbGUiIGNsYXNzPSJleCI+dG91Y2hpbmcgbmVpdGhlciBzdHJlZXQ6IHR3byBibG9ja3M8L3RleHQ+CiAgPGxpbmUgeDE9IjIwIiB5MT0iMzcyIiB4Mj0iNjIwIiB5Mj0iMzcyIiBzdHJva2U9IiNlMmUyZTIiIHN0cm9rZS13aWR0aD0iMS41Ii8+CiAgPCEtLSBTaHJpbmtpbmc6IGEgYmxvY2sgb3ZlciB0d28gZ2Fwcywgam9pbmVkIHRocm91Z2ggYSBob2xlIGluIGF2ZW51ZSAxIC0tPgogIDx0ZXh0IHg9IjQwIiB5PSI0MTAiIGNsYXNzPSJoZWFkIj5TaHJpbmtpbmc6ICswPC90ZXh0PgogIDxyZWN0IHg9IjEzMCIgeT0iNTAwLjAiIHdpZHRoPSIzMCIgaGVpZ2h0PSIxMjAuMCIgY2xhc3M9ImIxIi8+CiAgPHJlY3QgeD0iNzAiIHk9IjUxNS4wIiB3aWR0aD0iNjAiIGhlaWdodD0iOTAuMCIgY2xhc3M9ImIxIi8+CiAgPHJlY3QgeD0iMTYwIiB5PSI1MTUuMCIgd2lkdGg9IjYwIiBoZWlnaHQ9IjMwLjAiIGNsYXNzPSJiMSIvPgogIDxyZWN0IHg9IjE2MCIgeT0iNTc1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMC4wIiBjbGFzcz0iYjEiLz4KICA8cmVjdCB4PSI0MCIgeT0iNDQwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI0NCIgeTE9IjQ3MCIgeDI9IjY2IiB5Mj0iNDcwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YxIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MCw0NDApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjIiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQwLDQ3MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI0MCIgeT0iNTAwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI0NCIgeTE9IjUzMCIgeDI9IjY2IiB5Mj0iNTMwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YyIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MCw1MDApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjMiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQwLDUzMCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI0MCIgeT0iNTYwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI0NCIgeTE9IjU5MCIgeDI9IjY2IiB5Mj0iNTkwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YzIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MCw1NjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjQiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQwLDU5MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI0MCIgeT0iNjIwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSI0NCIgeTE9IjY1MCIgeDI9IjY2IiB5Mj0iNjUwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y0IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg0MCw2MjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjUiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDQwLDY1MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSIxMzAiIHk9IjQ0MCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iMTM0IiB5MT0iNDcwIiB4Mj0iMTU2IiB5Mj0iNDcwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3YwIiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxMzAsNDQwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y2IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxMzAsNDcwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjEzMCIgeT0iNjIwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSIxMzQiIHkxPSI2NTAiIHgyPSIxNTYiIHkyPSI2NTAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjciIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEzMCw2MjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjAiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDEzMCw2NTApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iMjIwIiB5PSI0NDAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjIyNCIgeTE9IjQ3MCIgeDI9IjI0NiIgeTI9IjQ3MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2NSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMjIwLDQ0MCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2OCIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMjIwLDQ3MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSIyMjAiIHk9IjUwMCIgd2lkdGg9IjMwIiBoZWlnaHQ9IjYwIiByeD0iNCIgY2xhc3M9InQiLz48bGluZSB4MT0iMjI0IiB5MT0iNTMwIiB4Mj0iMjQ2IiB5Mj0iNTMwIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI3Y4IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgyMjAsNTAwKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI3Y5IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgyMjAsNTMwKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjIyMCIgeT0iNTYwIiB3aWR0aD0iMzAiIGhlaWdodD0iNjAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSIyMjQiIHkxPSI1OTAiIHgyPSIyNDYiIHkyPSI1OTAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjdjkiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDIyMCw1NjApIHNjYWxlKDAuNzUpIi8+PHVzZSB4bGluazpocmVmPSIjdjUiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDIyMCw1OTApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iMjIwIiB5PSI2MjAiIHdpZHRoPSIzMCIgaGVpZ2h0PSI2MCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjIyNCIgeTE9IjY1MCIgeDI9IjI0NiIgeTI9IjY1MCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiN2NSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMjIwLDYyMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiN2MSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMjIwLDY1MCkgc2NhbGUoMC43NSkiLz4KICA8cmVjdCB4PSI3MCIgeT0iNDg1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjEwMCIgeTE9IjQ4OS4wIiB4Mj0iMTAwIiB5Mj0iNTExLjAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjaDIiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDcwLDQ4NS4wKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI2g2IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxMDAsNDg1LjApIHNjYWxlKDAuNzUpIi8+CiAgPHJlY3QgeD0iNzAiIHk9IjYwNS4wIiB3aWR0aD0iNjAiIGhlaWdodD0iMzAiIHJ4PSI0IiBjbGFzcz0idCIvPjxsaW5lIHgxPSIxMDAiIHkxPSI2MDkuMCIgeDI9IjEwMCIgeTI9IjYzMS4wIiBjbGFzcz0iZCIvPjx1c2UgeGxpbms6aHJlZj0iI2g0IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSg3MCw2MDUuMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiNoNyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTAwLDYwNS4wKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjE2MCIgeT0iNDg1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjE5MCIgeTE9IjQ4OS4wIiB4Mj0iMTkwIiB5Mj0iNTExLjAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjaDYiIHRyYW5zZm9ybT0idHJhbnNsYXRlKDE2MCw0ODUuMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiNoOCIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTkwLDQ4NS4wKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjE2MCIgeT0iNjA1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJ0Ii8+PGxpbmUgeDE9IjE5MCIgeTE9IjYwOS4wIiB4Mj0iMTkwIiB5Mj0iNjMxLjAiIGNsYXNzPSJkIi8+PHVzZSB4bGluazpocmVmPSIjaDciIHRyYW5zZm9ybT0idHJhbnNsYXRlKDE2MCw2MDUuMCkgc2NhbGUoMC43NSkiLz48dXNlIHhsaW5rOmhyZWY9IiNoNSIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTkwLDYwNS4wKSBzY2FsZSgwLjc1KSIvPgogIDxyZWN0IHg9IjE2MCIgeT0iNTQ1LjAiIHdpZHRoPSI2MCIgaGVpZ2h0PSIzMCIgcng9IjQiIGNsYXNzPSJuZXciLz48bGluZSB4MT0iMTkwIiB5MT0iNTQ5LjAiIHgyPSIxOTAiIHkyPSI1NzEuMCIgY2xhc3M9ImQiLz48dXNlIHhsaW5rOmhyZWY9IiNoMyIgdHJhbnNmb3JtPSJ0cmFuc2xhdGUoMTYwLDU0NS4wKSBzY2FsZSgwLjc1KSIvPjx1c2UgeGxpbms6aHJlZj0iI2g5IiB0cmFuc2Zvcm09InRyYW5zbGF0ZSgxOTAsNTQ1LjApIHNjYWxlKDAuNzUpIi8+CiAgPHRleHQgeD0iMzAwIiB5PSI0NjIiIGNsYXNzPSJoZWFkMiI+VGhlIGJsb2NrIHJ1bnMgdGhyb3VnaCBnYXAgMCwgdGhlIGhvbGU8L3RleHQ+CiAgPHRleHQgeD0iMzAwIiB5PSI0ODEiIGNsYXNzPSJoZWFkMiI+aW4gYXZlbnVlIDEgYW5kIGdhcCAxLjwvdGV4dD4KICA8dGV4dCB4PSIzMDAiIHk9IjUxOSIgY2xhc3M9ImV4Ij4zLTkgczE6NyB0b3VjaGVzIHRoZSB0d28gYXZlbnVlPC90ZXh0PgogIDx0ZXh0IHg9IjMwMCIgeT0iNTM4IiBjbGFzcz0iZXgiPmRvbWlub2VzIG9mIGNvbHVtbiAyIGF0IHRoZWlyIDl8OSBqb2ludDs8L3RleHQ+CiAgPHRleHQgeD0iMzAwIiB5PSI1NTciIGNsYXNzPSJleCI+aXRzIHdlc3QgaGFsZiBmYWNlcyB0aGUgaG9sZS48L3RleHQ+CiAgPHRleHQgeD0iMzAwIiB5PSI1OTUiIGNsYXNzPSJleCI+R2FwIDEgaXMgY3V0LCBidXQgYm90aCBwYXJ0cyBzdGlsbDwvdGV4dD4KICA8dGV4dCB4PSIzMDAiIHk9IjYxNCIgY2xhc3M9ImV4Ij5tZWV0IHRocm91Z2ggdGhlIGhvbGU6IHRoZSBibG9jayBpczwvdGV4dD4KICA8dGV4dCB4PSIzMDAiIHk9IjYzMyIgY2xhc3M9ImV4Ij5zdGlsbCBvbmUgYmxvY2ssIG9ubHkgc21hbGxlcjogbm8gcG9pbnQuPC90ZXh0PgogIDxyZWN0IHg9IjMwMCIgeT0iNjU0IiB3aWR0aD0iMTgiIGhlaWdodD0iMTQiIGNsYXNzPSJuZXciLz48dGV4dCB4PSIzMjYiIHk9IjY2NiIgY2xhc3M9ImV4Ij50aGUgZG9taW5vIGp1c3QgcGxhY2VkPC90ZXh0PgogIDxyZWN0IHg9IjUwMCIgeT0iNjU0IiB3aWR0aD0iMTgiIGhlaWdodD0iMTQiIGNsYXNzPSJiMSIvPjx0ZXh0IHg9IjUyNiIgeT0iNjY2IiBjbGFzcz0iZXgiPmEgYmxvY2s8L3RleHQ+Cjwvc3ZnPgo=" alt="Closing a block scores 1, dividing one in two scores 2, shrinking one scores nothing"></p>
<p><strong>Regions and blocks.</strong> Cut every square of the table into a north half and a south half (the
finest grain a half-row street needs). A <strong>region</strong> is a set of free half-squares connected edge
to edge; corners do not connect. The <strong>outside</strong> is everything beyond the smallest rectangle that
contains every domino. A region that cannot reach the outside is a <strong>block</strong>. Blocks may have any
shape: a hole in an avenue joins the spaces on either side of it into one irregular block, and a
block can be as small as the half-row between two streets.</p>
<p>Because corners do not connect, two dominoes that meet only at a corner seal the space between
them, even though they do not <em>touch</em> for matching.</p>
<p><strong>Scoring a placement.</strong> Compare the blocks before and after the domino is placed:</p>
<ul>
<li><strong>Closing.</strong> A domino placed in open space (a region that reached the outside) scores <strong>1 for
every block it creates</strong>: usually 1, but a domino that closes off two regions at once scores 2.</li>
<li><strong>Dividing.</strong> A domino placed inside a block that splits it into two or more blocks scores <strong>1
for each of the resulting blocks</strong>: dividing a block in two scores 2, into three scores 3.</li>
<li><strong>Shrinking.</strong> A domino placed inside a block that stays one block scores <strong>nothing</strong>. Neither
does a domino that fills a block completely (the block disappears).</li>
</ul>
<p>The points go to the player who placed the domino. The number of blocks on the table is public
(<code>board.blocks</code> in a bot&#39;s view).</p>
<h2 id="your-turn">Your turn</h2>
<p>On their turn a player does exactly one of these:</p>
<ol>
<li><strong>Place</strong> a domino from hand, legally. If the boneyard is not empty, the player then draws one
tile (back up to 7) and the turn passes on. A player who can place a domino <strong>must</strong> place one,
unless <code>may_pass_when_able</code> is on.</li>
<li><strong>Pass</strong>, when they cannot place any tile of their hand anywhere (or at any time under
<code>may_pass_when_able</code>).</li>
<li><strong>Discard and draw</strong>, whenever passing is allowed and the boneyard is not empty: put one tile
from hand face up out of the game, and draw one tile in its place. This counts as the turn.</li>
</ol>
<p>A seat whose hand is empty (possible only once the boneyard is empty) is skipped.</p>
<h2 id="the-end-of-the-game">The end of the game</h2>
<p>Play stops when either</p>
<ul>
<li><strong>every hand is empty</strong>, or</li>
<li><strong>every player still holding tiles has, in turn, passed</strong> since the last placement or discard:
nobody can place and nobody changes their hand. (A discard-and-draw resets this, since it
changes the discarding player&#39;s hand.)</li>
</ul>
<p>Then each player <strong>loses 1 point for each tile left in hand</strong>. Scores may be negative. The highest
score wins; <strong>equal highest scores share the win</strong> (every seat with the top score is a winner).</p>
<p><strong>Resigning.</strong> A seat may resign through the server (<code>GameService.Resign</code>). The game ends at once:
the resigning seat loses, no end-of-game penalties are taken, and the seats with the best score
among the others win (sharing on a tie).</p>
<h2 id="what-each-player-can-see">What each player can see</h2>
<p>A player sees their own hand, the whole table, every score, every discarded tile, the number of
tiles in each hand and in the boneyard, whose turn it is, and the public history: every
placement, discard and pass. Nobody sees another player&#39;s hand, the boneyard, or which tile a
player drew. When the game ends, every hand is revealed with the penalties, and the game&#39;s full
log (every hand and every drawn tile) can be read for analysis.</p>
<p>The bot view built from this is described in <a href="/bots/guide#the-view"><code>bots/README.md</code></a>.</p>
<h2 id="writing-actions-down">Writing actions down</h2>
<p>Clack writes actions in a short text notation. It is what a bot&#39;s view holds
(<code>view.history[i].action</code> and each legal action&#39;s <code>text</code>) and what the command-line tools print.</p>
<table>
<thead>
<tr>
<th>action</th>
<th>written</th>
<th>meaning</th>
</tr>
</thead>
<tbody><tr>
<td>place an avenue domino</td>
<td><code>3-5 a0:2</code></td>
<td>3 north, 5 south, in avenue column 0, north half in row 2</td>
</tr>
<tr>
<td>place a street</td>
<td><code>6-0 s0:7</code></td>
<td>6 west, 0 east, in gap 0, top edge at half-row 7</td>
</tr>
<tr>
<td>negative coordinates</td>
<td><code>0-2 s-1:0</code>, <code>1-1 a0:-2</code></td>
<td>gap −1; row −2</td>
</tr>
<tr>
<td>discard and draw</td>
<td><code>discard 4-4</code></td>
<td>discard 4-4 face up, then draw</td>
</tr>
<tr>
<td>pass</td>
<td><code>pass</code></td>
<td>pass</td>
</tr>
</tbody></table>
<p>For a placement the order of the two numbers matters: <strong>the first number goes north (avenue) or
west (street)</strong>. <code>3-5 a0:2</code> and <code>5-3 a0:2</code> are different placements of the same tile. For a
discard, the tile is written low half first. The engine reads exactly these forms (lower-case
<code>a</code>, <code>s</code>, <code>discard</code>, <code>pass</code>) and refuses anything else with a reminder of them.</p>
<p>Over gRPC, a move is a <code>StreetsAction</code> with <code>kind</code> (<code>KIND_PLACE</code>, <code>KIND_DISCARD</code>, <code>KIND_PASS</code>),
<code>tile</code>, <code>spot</code> (<code>avenue {column, row}</code> or <code>street {gap, half_row}</code>; <code>halfRow</code> in JSON) and <code>first</code>,
the number on the north or west half. <code>first</code> may be left out when the tile is a double.</p>
<h3 id="the-order-of-legal-actions">The order of legal actions</h3>
<p>The engine lists legal actions in a fixed order, which is the order of <code>view.legal</code> for a bot:
placements first, by spot (all avenue spots before all street spots; avenue spots by column, then
row; street spots by gap, then half-row), then by tile (by high half, then low half:
<code>0-0, 0-1, 1-1, 0-2, ...</code>), then with the lower number first; then discards, by tile; then
<code>pass</code>.</p>
<h3 id="the-table-as-text">The table as text</h3>
<p>The command-line tools print the table with three characters per half-square and one line per
half-row. An avenue half shows its number, then <code>│</code> (the middle of a domino) or <code>═</code> (its end); a
street shows <code>[w  e]</code> over <code>[════]</code>; free space inside a block is <code>░░░</code>. The position in the
geometry diagram above prints as (leaving out the blank first and last lines):</p>
<pre><code class="language-text">    1
    │
    3
    ═
    3 [3  5] 5
    │ [════] │
    6 ░░░░░░ 0
    ═ [6  0] ═
    6 [════]
    │
    2
    ═
blocks: 1
</code></pre>
<h2 id="refused-actions">Refused actions</h2>
<p>An illegal action changes nothing; the engine answers with the reason.</p>
<table>
<thead>
<tr>
<th>the player tried to</th>
<th>answer</th>
</tr>
</thead>
<tbody><tr>
<td>act after the game ended</td>
<td>the game is over</td>
</tr>
<tr>
<td>act out of turn</td>
<td>it is not your turn: seat <em>n</em> is to play</td>
</tr>
<tr>
<td>act while a deal or draw is being made</td>
<td>wait: the dealer has not finished dealing or drawing</td>
</tr>
<tr>
<td>use a tile they do not hold</td>
<td>you do not hold <em>tile</em></td>
</tr>
<tr>
<td>name a <code>first</code> number the tile does not show</td>
<td><em>tile</em> does not show <em>n</em></td>
</tr>
<tr>
<td>place the first domino anywhere but <code>a0:0</code></td>
<td><em>spot</em>: the first domino must start the first avenue at a0:0</td>
</tr>
<tr>
<td>place on taken squares (or overlapping a street)</td>
<td><em>spot</em>: those squares are taken</td>
</tr>
<tr>
<td>place an avenue domino touching nothing</td>
<td><em>spot</em>: an avenue domino must touch another domino</td>
</tr>
<tr>
<td>extend a full avenue at either end</td>
<td><em>spot</em>: this avenue holds seven dominoes and cannot grow further north or south</td>
</tr>
<tr>
<td>place a street touching fewer than two avenue dominoes</td>
<td><em>spot</em>: a street must touch at least two avenue dominoes</td>
</tr>
<tr>
<td>place a street touching another street</td>
<td><em>spot</em>: no street may touch another street</td>
</tr>
<tr>
<td>place where the neighbours demand two different numbers of one half</td>
<td><em>spot</em>: the dominoes around this spot demand two different numbers of one half</td>
</tr>
<tr>
<td>place a tile whose numbers do not match its neighbours</td>
<td><em>tile</em> does not match the dominoes it would touch at <em>spot</em></td>
</tr>
<tr>
<td>pass or discard while able to place</td>
<td>you can place a domino, so you may not pass or discard</td>
</tr>
<tr>
<td>discard when the boneyard is empty</td>
<td>the boneyard is empty, so there is nothing to draw after a discard</td>
</tr>
</tbody></table>
<h2 id="edge-cases-the-engine-settles">Edge cases the engine settles</h2>
<p>The original text is silent on these; this is what Clack does.</p>
<ul>
<li><strong>Geometry.</strong> Streets are placed by half-row and may straddle a joint; no upright domino in a
gap, no crosswise domino in an avenue column. A street straddling the middle of a non-double
avenue domino is impossible (its two halves would demand different numbers); across the middle
of a double it touches one domino.</li>
<li><strong>&quot;Two avenue dominoes&quot;</strong> means two <em>different</em> dominoes. Two at a joint on the same side count.
A street touching one double with one end and nothing on the other side touches only one.</li>
<li><strong>Street spacing.</strong> Half-rows one apart overlap (refused: squares taken); two apart touch
(refused); three or more apart is fine, even though it leaves only half a square between them.</li>
<li><strong>The avenue limit</strong> counts every domino in the column, connected or not, and forbids only
growth beyond the northernmost and southernmost squares.</li>
<li><strong>Outside</strong> is measured against the tight rectangle around all dominoes; a free half-square on
the edge of that rectangle is open.</li>
<li><strong>Scoring</strong> is per resulting block: closing two regions at once scores 2; dividing into three
scores 3; shrinking or filling a block scores 0. Filling a hole in an avenue can divide the block
that ran through it, and then scores.</li>
<li><strong>Must place.</strong> A player who can place must place (default). Passing is otherwise only for a
player with no legal placement.</li>
<li><strong>Discard and draw</strong> is allowed whenever passing is, including under <code>may_pass_when_able</code>, and
only while the boneyard has tiles.</li>
<li><strong>Empty boneyard.</strong> Placements are no longer followed by a draw; hands shrink, and seats with
empty hands are skipped.</li>
<li><strong>The end</strong> comes when all hands are empty or every seat still holding tiles has passed in turn
since the last placement or discard. Under <code>may_pass_when_able</code> this can end the game while
placements are still possible, if every holder chooses to pass.</li>
<li><strong>Ties</strong> at the end share the win.</li>
<li><strong>Resigning</strong> ends the game without penalties; the best of the other seats win.</li>
</ul>
<h2 id="worked-examples-the-original-captions">Worked examples: the original captions</h2>
<p>The original rules came with six diagrams; the pictures are lost and only some captions remain.
Those captions, and two sentences of the rules text (cases 7 and 8), make eight numbered cases.
Each is a named test in <code>crates/clack-rules/tests/streets_captions.rs</code>; the positions below are
the ones the tests build (coordinates are one way to build each situation).</p>
<h3 id="1-6-0-only-borders-one-avenue-tile">1. &quot;6-0 only borders one avenue tile&quot;</h3>
<blockquote>
<p><em>&quot;Note that tile 6-0 is not played correctly; 6-0 only borders one avenue tile. The avenue
ending with 3-6 needs to be extended one more tile before a street can be formed.&quot;</em></p>
</blockquote>
<p>Column 0 holds <code>1-3 a0:0</code> and <code>3-6 a0:2</code>, so its south end shows 6 in row 3. A 6-0 street at
<code>s0:6</code> (in line with row 3) faces only the 6 of 3-6: it touches one avenue domino and is refused.
Extend the avenue with <code>6-2 a0:4</code>: now a 6-0 street at <code>s0:7</code> straddles the 6|6 joint between rows
3 and 4 and touches two avenue dominoes, so <code>6-0 s0:7</code> is legal (<code>s0:6</code> is still refused: it
still faces only row 3).</p>
<h3 id="2-new-avenues-need-only-border-one-street">2. &quot;New avenues need only border one street&quot;</h3>
<blockquote>
<p><em>&quot;1-2 is placed correctly; new avenues need only border one street.&quot;</em></p>
</blockquote>
<p>Column 0 holds <code>4-5 a0:0</code> and <code>5-6 a0:2</code>, and the street <code>5-1 s0:3</code> straddles their 5|5 joint, its
east half showing 1. Column 1 is empty. <code>1-2 a1:2</code> is legal: its north half (row 2) touches the
street&#39;s 1 (half-row 4). So is <code>2-1 a1:0</code>, which puts its 1 in row 1 against half-row 3. <code>2-1 a1:2</code>
is refused (its 2 would face the street&#39;s 1), and <code>1-2 a1:6</code> is refused because it touches
nothing.</p>
<h3 id="3-a-tile-can-be-placed-connecting-5-and-1">3. &quot;A tile can be placed connecting 5 and 1&quot;</h3>
<blockquote>
<p><em>&quot;A tile can be placed connecting 5 and 1 at the top of the diagram; that tile would border two
avenue tiles.&quot;</em></p>
</blockquote>
<p>Column 0 shows 5 in row 3 (the south half of <code>3-5 a0:2</code>) and column 1 shows 1 in row 3 (the south
half of <code>8-1 a1:2</code>, an avenue started from the street <code>3-8 s0:3</code>). The street <code>5-1 s0:6</code>, in line
with row 3, touches both and is legal; <code>1-5 s0:6</code> (the wrong way round) is refused.</p>
<h3 id="4-it-is-only-connected-to-one-avenue-domino">4. &quot;It is only connected to one avenue domino&quot;</h3>
<blockquote>
<p><em>&quot;The blue domino cannot be played; it is only connected to one avenue domino.&quot;</em></p>
</blockquote>
<p>With only <code>2-3 a0:0</code> and <code>3-4 a0:2</code> on the table, the street <code>0-2 s-1:0</code> (gap −1, west of the
avenue) matches the 2 it faces, yet touches only one avenue domino: refused.</p>
<h3 id="5-it-also-completes-an-irregularly-shaped-block">5. &quot;It also completes an irregularly shaped block&quot;</h3>
<blockquote>
<p><em>&quot;The black domino is correctly placed. It is connected to 2 avenue dominoes (north/south). It
also completes an irregularly shaped block.&quot;</em></p>
</blockquote>
<p>Played with the double-twelve set. Avenue 0 runs from row −2 to row 7; avenue 1 holds <code>7-6 a1:-2</code>,
<code>6-8 a1:0</code> and, after a hole of two rows (rows 2 and 3), <code>10-9 a1:4</code>; avenue 2 holds rows 0–5.
Streets close gap 0 at its top (<code>1-6 s0:-1</code>) and bottom (<code>4-9 s0:11</code>) and gap 1 at its top
(<code>6-11 s1:-1</code>). Fourteen placements in, no block exists yet: gap 1 is open at the bottom. The
street <code>9-2 s1:11</code> touches <code>10-9</code> on its west and <code>0-2</code> on its east (the 9 and the 2 at the south
ends of avenues 1 and 2) and closes one block: gap 0 and gap 1 from half-row 1 to half-row 10, joined through the hole in avenue 1,
44 half-squares in all. It scores 1.</p>
<h3 id="6-the-center-avenue-contains-seven-dominoes">6. &quot;The center avenue contains seven dominoes&quot;</h3>
<blockquote>
<p><em>&quot;Notice that the center avenue contains seven dominoes. It cannot be extended further north or
south, however, a domino may be played in the middle.&quot;</em></p>
</blockquote>
<p>Column 0 holds seven dominoes in two parts: rows 0–7 and rows 10–15, with a hole in rows 8–9.
<code>6-6 a0:16</code> (south of the southernmost square) and <code>0-0 a0:-2</code> (north of the northernmost) are
refused: the avenue is full. <code>4-11 a0:8</code>, filling the hole, is legal, and the column then holds
eight.</p>
<h3 id="7-divides-a-block-in-two-two-points">7. &quot;Divides a block in two: two points&quot;</h3>
<blockquote>
<p><em>&quot;If a domino is placed inside a block and divides a block in two, two blocks have been created
and two points are scored.&quot;</em></p>
</blockquote>
<p>This is the top row of the blocks diagram. Avenues 0 and 1 each hold four dominoes (rows 0–7) and
the street <code>1-5 s0:3</code> joins them. <code>3-8 s0:11</code> closes the space between the two streets: 1 point.
Then <code>2-7 s0:7</code>, inside that block and touching neither street, divides it in two: 2 points. The
player has 3 points and the table has 2 blocks.</p>
<h3 id="8-no-street-ever-touches-another-street">8. &quot;No street ever touches another street&quot;</h3>
<blockquote>
<p><em>&quot;No street ever touches another street.&quot;</em></p>
</blockquote>
<p>With avenue 0 as in caption 7 (rows 0–7), avenue 1 in rows 0–5 and the street <code>1-5 s0:3</code> in gap 0: <code>1-1 s0:1</code> (two half-rows above, edge
to edge) is refused because it touches a street; <code>1-1 s0:2</code> (one half-row above, overlapping) is
refused because the squares are taken; <code>2-2 s0:5</code> (two half-rows below) touches a street and is
refused; <code>2-7 s0:7</code>, four half-rows away, is legal.</p>
`};export{e as default};