-- wrk script for bench/wrk.ts: POST precomputed bodies (one per line of a file, each thread its
-- own share), count answers that are not successes, and print one RESULT line.
-- Arguments after --: path, bodies file, success prefix of the answer body, number of threads.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  path, file, okprefix, nthreads = args[1], args[2], args[3], tonumber(args[4])
  bodies = {}
  local n = 0
  for line in io.lines(file) do
    if n % nthreads == id then bodies[#bodies + 1] = line end
    n = n + 1
  end
  i, failed, wrapped = 0, 0, 0
end

function request()
  i = i + 1
  if i > #bodies then i = 1; wrapped = wrapped + 1 end
  return wrk.format("POST", path, { ["Content-Type"] = "application/x-www-form-urlencoded" }, bodies[i])
end

function response(status, headers, body)
  if status ~= 200 or string.sub(body, 1, #okprefix) ~= okprefix then failed = failed + 1 end
end

function done(summary, latency, requests)
  local f, w = 0, 0
  for _, t in ipairs(threads) do f = f + t:get("failed"); w = w + t:get("wrapped") end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d failed=%d wrapped=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), f, w,
    e.connect + e.read + e.write + e.status + e.timeout))
end
