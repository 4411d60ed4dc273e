#!/usr/bin/env python3
"""Writes the gpsd log of the memory benchmark (scripts/bench-gpsd.sh): 1,000,000 TPV reports.

What `gpspipe -w` writes for a receiver at 10 Hz over a day's walk and ride (27.8 hours): gpsd's
VERSION, DEVICES and WATCH, then a TPV report every 0.1 s with every field gpsd 3.22 sends for a
3D fix, and a SKY report every second. Every 20,000th report has no fix (mode 1, as indoors), so the
log loses and regains its fix. Deterministic: Python's Mersenne Twister with seed 17.

Usage: scripts/bench-gpsd-data.py OUT [REPORTS]
"""
import datetime
import random
import sys


def main():
    out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rng = random.Random(17)
    start = datetime.datetime(2026, 3, 2, 9, 0, 0, tzinfo=datetime.timezone.utc)
    device = "/dev/ttyACM0"
    lat, lon = 52.2053, 0.1218
    with open(out, "w") as f:
        f.write('{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}\n')
        f.write(f'{{"class":"DEVICES","devices":[{{"class":"DEVICE","path":"{device}","driver":"u-blox","activated":"{start.isoformat()[:19]}.000Z","flags":1,"native":1,"bps":9600,"parity":"N","stopbits":1,"cycle":0.10}}]}}\n')
        f.write('{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}\n')
        for i in range(count):
            time = (start + datetime.timedelta(milliseconds=100 * i)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:23] + "Z"
            if i % 20000 == 19999:
                f.write(f'{{"class":"TPV","device":"{device}","mode":1,"time":"{time}","ept":0.005}}\n')
            else:
                lat += rng.uniform(-2e-6, 3e-6)
                lon += rng.uniform(-2e-6, 3e-6)
                speed = rng.uniform(0, 6)
                f.write(
                    f'{{"class":"TPV","device":"{device}","mode":3,"time":"{time}","ept":0.005,"lat":{lat:.9f},"lon":{lon:.9f},'
                    f'"altHAE":{rng.uniform(40, 60):.3f},"altMSL":{rng.uniform(0, 20):.3f},"alt":{rng.uniform(0, 20):.3f},'
                    f'"epx":{rng.uniform(2, 9):.3f},"epy":{rng.uniform(2, 9):.3f},"epv":{rng.uniform(4, 20):.3f},'
                    f'"track":{rng.uniform(0, 360):.4f},"magtrack":{rng.uniform(0, 360):.4f},"magvar":1.2,"speed":{speed:.3f},'
                    f'"climb":{rng.uniform(-0.3, 0.3):.3f},"eps":{rng.uniform(5, 20):.2f},"epc":{rng.uniform(8, 40):.2f},'
                    f'"geoidSep":47.000,"eph":{rng.uniform(3, 12):.3f},"sep":{rng.uniform(5, 25):.3f}}}\n'
                )
            if i % 10 == 9:
                f.write(
                    f'{{"class":"SKY","device":"{device}","time":"{time}","xdop":0.64,"ydop":0.82,"vdop":1.21,"tdop":0.86,'
                    f'"hdop":1.04,"gdop":1.83,"pdop":1.60,"nSat":12,"uSat":8}}\n'
                )


if __name__ == "__main__":
    main()
