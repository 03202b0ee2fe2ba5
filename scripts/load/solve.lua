-- wrk: POST a small graph (seed 000's "cycle + terminal") to /api/solve?trace=true.
wrk.method = "POST"
wrk.path = "/api/solve?trace=true"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"nodes":5,"edges":[[0,1],[0,2],[1,3],[2,1],[2,4],[4,2]]}'
