#!/usr/bin/env python3
"""Writes the Loop Habit Tracker export of the import benchmark (BENCHMARKS.md, issue 33): a folder
with Habits.csv and Checkmarks.csv for 15,000 habits and 30 days, in Loop 2.3's layout (uhabits-core
`HabitList.writeCSV` and `HabitsCSVExporter`, as docs/imports.md describes and
Tests/VigilCLITests/ImportCLITests.swift writes): the header of Checkmarks.csv is the names as
they are, a row a day newest first, a trailing comma on every row. Every tenth habit is 3 times
in 7 days, every hundredth archived. Deterministic: Python's Mersenne Twister with seed 33.

Usage: scripts/bench-loop-data.py FOLDER [HABITS] [DAYS]
"""
import datetime
import os
import random
import sys


def main():
    folder = sys.argv[1]
    habits = int(sys.argv[2]) if len(sys.argv) > 2 else 15_000
    days = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    rng = random.Random(33)
    os.makedirs(folder, exist_ok=True)
    names = [f"Habit {i + 1} {rng.choice(['Walk', 'Read', 'Floss', 'Stretch', 'Journal'])}" for i in range(habits)]
    with open(os.path.join(folder, "Habits.csv"), "w") as f:
        f.write("Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n")
        for i, name in enumerate(names):
            (num, den) = (3, 7) if i % 10 == 9 else (1, 1)
            f.write(f"{i + 1:03d},{name},YES_NO,Did you do it?,,{num},{den},#FF8F00,,,,{'true' if i % 100 == 99 else 'false'}\n")
    last = datetime.date(2026, 11, 20)
    marks = ["YES_MANUAL", "YES_MANUAL", "YES_AUTO", "NO", "SKIP", "UNKNOWN"]
    with open(os.path.join(folder, "Checkmarks.csv"), "w") as f:
        f.write("Date," + ",".join(names) + ",\n")
        for d in range(days):
            day = last - datetime.timedelta(days=d)
            f.write(day.isoformat() + "," + ",".join(rng.choice(marks) for _ in names) + ",\n")
    print(f"{folder}: {habits} habits, {days} days")


if __name__ == "__main__":
    main()
