"""How a crawl went: its run summary (`summary`), its verdict on Spidermon (`monitors`), the
extension that logs and writes the summary (`extension`), and one-line network errors
(`network_errors`). The scheduler's comparison with earlier runs is
`newscrawl.schedule.verdict`."""
