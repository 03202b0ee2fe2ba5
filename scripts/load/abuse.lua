-- wrk: malformed and oversized requests, in rotation, to mix into a good load.
-- Every one must be answered 4xx with JSON (or the connection closed for a body over the limit).
local big = string.rep("#", 200 * 1024)  -- over the 64K --max-body load.sh starts the server with
local bad = {
  { "POST", "/api/solve", '{"nodes": 2, "edges": [[0,1]' },                -- 400 malformed JSON
  { "POST", "/api/solve", "3 2\n0 1\n1 x\n" },                            -- 400 bad edge list (line 3)
  { "POST", "/api/solve", '{"nodes": 2, "edges": [[0, 9]]}' },             -- 400 id out of range
  { "POST", "/api/solve", '{"nodes": 99999999, "edges": []}' },            -- 413 too many nodes
  { "POST", "/api/solve", "2 5000000\n" },                                 -- 413 too many edges
  { "POST", "/api/solve", "1 0\n" .. big },                                -- 413 body too large
  { "POST", "/api/solve?trace=maybe", "1 0\n" },                           -- 400 bad query
  { "GET",  "/api/solve", nil },                                           -- 405
  { "GET",  "/api/nope", nil },                                            -- 404
  { "GET",  "/api/tb?fen=8/8/8/8/8/8/8/8%20w%20-%20-%200%201", nil },      -- 400 bad FEN (no kings)
  { "GET",  "/api/tb?fen=4k3/8/8/8/8/8/8/RR2K3%20w%20-%20-%200%201", nil }, -- 404 no table (KRRvK)
  { "POST", "/api/tb/batch", '{"fens": [' },                               -- 400 malformed batch
}
local i = 0
request = function()
  i = i % #bad + 1
  local r = bad[i]
  return wrk.format(r[1], r[2], nil, r[3])
end
