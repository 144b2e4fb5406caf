-- wrk script for benchmarks/service/goodput.py: POST one body per line of a file, round
-- robin, and count the answers by status across wrk's threads (wrk's own
-- counters only split "non-2xx"); prints one JSON line when done.
--   wrk -s wrk_post.lua URL -- BODIES_FILE PATH
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bodies = {}
  for line in io.lines(args[1]) do
    bodies[#bodies + 1] = line
  end
  path = args[2] or "/v1/solve"
  index = 0
  statuses = {}
  headers = { ["Content-Type"] = "application/json" }
  if args[3] and args[3] ~= "" then
    headers["X-API-Key"] = args[3]
  end
end

function request()
  index = index % #bodies + 1
  return wrk.format("POST", path, headers, bodies[index])
end

function response(status, _, _)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

function done(summary, latency, _)
  local total = {}
  for _, thread in ipairs(threads) do
    local counted = thread:get("statuses")
    for status, count in pairs(counted) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    parts[#parts + 1] = string.format('"%s": %d', status, count)
  end
  io.write(string.format(
    'WRK_JSON {"duration_us": %d, "requests": %d, "connect_errors": %d, "read_errors": %d, '
      .. '"write_errors": %d, "timeouts": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, '
      .. '"statuses": {%s}}\n',
    summary.duration, summary.requests, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, latency:percentile(50),
    latency:percentile(99), latency.max, table.concat(parts, ", ")))
end
