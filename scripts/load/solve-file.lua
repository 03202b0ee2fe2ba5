-- wrk: POST the edge list named by $BODY_FILE to /api/solve.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.path = "/api/solve"
wrk.body = f:read("*a")
f:close()
