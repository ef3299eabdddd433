"""Train the cueref detector from scratch on rendered canonical views and export it to ONNX.

    pip install -e ".[train]"
    cueref dataset build/dataset --images 4000 --seed 1 -j 2
    python models/train.py --data build/dataset --epochs 60            # CPU: hours
    python models/train.py --data build/dataset --hours 0.09 --device 0 --batch 64 --workers 16

Steps, all offline (nothing is fetched: no weights, fonts, AMP check or settings sync):

1. train ``models/cueref-det.yaml`` from random weights with ultralytics, at the canonical
   scale (640 px long side, no mosaic, little scale jitter, hardly any hue shift: a ball's
   number is its colour), ``nbs`` equal to the batch and no warm-up;
2. recompute the BatchNorm statistics of the best checkpoint on training images (running
   statistics lag far behind the weights of a model trained from scratch), validate
   both, keep the better;
3. export to ONNX with a dynamic input size (640 x 320 for pool, 480 x 480 for Novuss),
   quantise a copy to int8 (static, calibrated on training views; what cueref runs) and
   write ``train-metrics.json`` (mAP, per-class AP, epochs, sha256) beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODEL_YAML = ROOT / "models" / "cueref-det.yaml"


def _offline(build: Path) -> None:
    """Keep ultralytics inside the build folder and off the network (before importing it)."""
    cfg = build / "ultralytics-config"
    cfg.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg)
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_OFFLINE"] = "1"
    from ultralytics import settings

    settings.update({"sync": False, "clearml": False, "comet": False, "dvc": False,
                     "mlflow": False, "raytune": False, "tensorboard": False, "wandb": False,
                     "datasets_dir": str(build),
                     "weights_dir": str(build / "weights"), "runs_dir": str(build / "runs")})


def read_results(path: Path) -> dict[str, list[float]]:
    """The trainer's results.csv as columns (the standard library: no polars needed)."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}


def _trainer_class():  # type: ignore[no-untyped-def]
    from ultralytics.models.yolo.detect import DetectionTrainer

    class Trainer(DetectionTrainer):
        def read_results_csv(self) -> dict[str, list[float]]:
            return read_results(Path(self.csv))

    return Trainer


def _data_yaml(dataset: Path, build: Path) -> Path:
    """A data.yaml pointing at ``dataset`` wherever it is now (it may have travelled)."""
    from vision.classes import DETECTOR_CLASSES

    out = build / "data.yaml"
    out.write_text(
        f"path: {dataset.resolve()}\ntrain: images/train\nval: images/val\nnames:\n"
        + "".join(f"  {i}: {n}\n" for i, n in enumerate(DETECTOR_CLASSES))
    )
    return out


def _views(images: list[Path], max_images: int) -> Iterator[Any]:
    """Up to ``max_images`` of the training views, drawn at random (seed 0), as RGB
    (3, H, W) uint8 arrays; unreadable files skipped."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(0)
    for i in rng.permutation(len(images))[:max_images]:
        img = cv2.imread(str(images[i]))
        if img is not None:
            yield np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1))


def recalibrate_batchnorm(weights: Path, images: list[Path], out: Path, *, device: str,
                          batch: int = 32, max_images: int = 1024) -> Path:
    """Re-estimate every BatchNorm's running mean and variance as plain averages over
    training images, in train mode without gradients; save the result as ``out``."""
    import numpy as np
    import torch
    from ultralytics import YOLO

    yolo = YOLO(str(weights))
    device = f"cuda:{device}" if device.isdigit() else device
    net = yolo.model.float().to(device)
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.reset_running_stats()
            m.momentum = None  # cumulative average
    net.train()
    by_shape: dict[tuple[int, ...], list[np.ndarray]] = {}

    def flush(group: list[np.ndarray]) -> None:
        x = torch.from_numpy(np.stack(group)).to(device).float() / 255.0
        with torch.no_grad():
            net(x)

    for chw in _views(images, max_images):
        group = by_shape.setdefault(chw.shape, [])
        group.append(chw)
        if len(group) == batch:
            flush(group)
            group.clear()
    for group in by_shape.values():
        if group:
            flush(group)
    net.eval()
    yolo.model = net
    yolo.save(str(out))
    return out


def weights_from_onnx(onnx_file: Path, images: list[Path], out: Path, *,
                      max_images: int = 256) -> Path:
    """A trainable checkpoint of ``models/cueref-det.yaml`` from an exported model, so a
    new stage can start from the committed ONNX weights when the checkpoint that made them
    is gone.

    The export folded each BatchNorm into its convolution. Unfolding it: the convolution
    takes the folded weights, and its BatchNorm the per-channel mean and variance of the
    convolution's output on training images as running statistics, with the scale and
    shift that cancel them. In eval mode the network computes exactly what the ONNX file
    does; in train mode, where BatchNorm normalises by the batch, nearly the same.
    """
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics import YOLO
    from ultralytics.nn.modules import Conv

    yolo = YOLO(str(MODEL_YAML))
    net = yolo.model.float().eval()
    stored = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy())
              for i in onnx.load(str(onnx_file)).graph.initializer}
    convs = {name: m for name, m in net.named_modules() if isinstance(m, Conv)}
    shift: dict[str, torch.Tensor] = {}

    def take(key: str) -> torch.Tensor:
        if key not in stored:
            raise ValueError(f"{onnx_file}: not an export of {MODEL_YAML.name} (no {key}); "
                             "rebuild it with models/train.py")
        return stored.pop(key)

    with torch.no_grad():
        for name, m in convs.items():
            m.conv.weight.copy_(take(f"{name}.conv.weight"))
            shift[name] = take(f"{name}.conv.bias")
            m.bn.running_mean.zero_()
            m.bn.running_var.fill_(1.0 - m.bn.eps)  # the BatchNorm adds only its shift
            m.bn.weight.fill_(1.0)
            m.bn.bias.copy_(shift[name])
        params = dict(net.named_parameters()) | dict(net.named_buffers())
        for key in [k for k in stored if k in params]:
            params[key].copy_(stored.pop(key))
    if stored:
        raise ValueError(f"{onnx_file}: weights the network {MODEL_YAML.name} lacks: "
                         f"{sorted(stored)[:5]}")

    sums = {name: torch.zeros(m.conv.out_channels, 2, dtype=torch.float64)
            for name, m in convs.items()}
    counts = dict.fromkeys(convs, 0)

    def hook(name: str):  # type: ignore[no-untyped-def]
        def record(_m, _x, y) -> None:  # type: ignore[no-untyped-def]
            y = y.detach().double().transpose(0, 1).flatten(1)
            sums[name][:, 0] += y.sum(1)
            sums[name][:, 1] += (y * y).sum(1)
            counts[name] += y.shape[1]
        return record

    handles = [m.conv.register_forward_hook(hook(name)) for name, m in convs.items()]
    with torch.no_grad():
        for chw in _views(images, max_images):
            net(torch.from_numpy(chw)[None].float() / 255.0)
    for h in handles:
        h.remove()
    with torch.no_grad():
        for name, m in convs.items():
            mean = sums[name][:, 0] / max(counts[name], 1)
            var = (sums[name][:, 1] / max(counts[name], 1) - mean * mean).clamp_min(0)
            m.bn.running_mean.copy_(mean.float())
            m.bn.running_var.copy_(var.float())
            m.bn.weight.copy_(torch.sqrt(var + m.bn.eps).float())
            m.bn.bias.copy_(shift[name] + mean.float())
    torch.save({"model": net, "ema": None, "train_args": {}, "source": str(onnx_file)}, out)
    return out


def _validate(weights: Path, data: Path, *, device: str, batch: int) -> dict:
    from ultralytics import YOLO

    from vision.classes import DETECTOR_CLASSES

    m = YOLO(str(weights)).val(data=str(data), imgsz=640, batch=batch, device=device,
                               plots=False, verbose=False, split="val")
    per_class = {}
    for k, c in enumerate(m.box.ap_class_index):
        per_class[DETECTOR_CLASSES[int(c)]] = {"ap50": round(float(m.box.ap50[k]), 4),
                                              "ap50_95": round(float(m.box.ap[k]), 4)}
    return {"map50": round(float(m.box.map50), 4), "map50_95": round(float(m.box.map), 4),
            "precision": round(float(m.box.mp), 4), "recall": round(float(m.box.mr), 4),
            "per_class": per_class}


def quantize_int8(src: Path, dst: Path, images: list[Path], *, count: int = 80) -> Path:
    """Static int8 quantisation (QDQ, per-channel weights), calibrated on ``count``
    training views: about twice as fast on a CPU as the float model."""
    import cv2
    import numpy as np
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    chosen = [p.resolve() for p in images[:: max(1, len(images) // count)][:count]]

    class Views(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter(chosen)

        def get_next(self) -> dict | None:
            path = next(self.it, None)
            if path is None:
                return None
            img = cv2.imread(str(path))
            if img.shape[0] == 480:  # a Novuss view, letterboxed to 640 for training
                img = img[:, 80:560]
            x = np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1))[None]
            return {"images": x.astype(np.float32) / 255.0}

    # The head's decoding (DFL, anchors, the concat of boxes in pixels with class scores
    # in 0..1) stays in float: one int8 scale for both would round every score to 0.
    import onnx

    nodes = [n.name for n in onnx.load(str(src)).graph.node]
    head = max(int(n.split("/")[1].split(".")[1]) for n in nodes if n.startswith("/model."))
    prefix = f"/model.{head}/"
    keep_float = [n for n in nodes if n.startswith(prefix)
                  and not n.startswith((prefix + "cv2", prefix + "cv3"))]
    src, dst = src.resolve(), dst.resolve()
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):  # its scratch files
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(dst), Views(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, nodes_to_exclude=keep_float)
    return dst


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="dataset folder (cueref dataset)")
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--hours", type=float, default=None,
                    help="train for this long instead of --epochs (schedule fitted to it)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default="ram", help="ram, disk or none")
    ap.add_argument("--fraction", type=float, default=1.0, help="share of the train split")
    ap.add_argument("--build", type=Path, default=ROOT / "build" / "train")
    ap.add_argument("--export", type=Path, default=ROOT / "models" / "cueref-detector.onnx")
    ap.add_argument("--resume", action="store_true", help="resume the last run in --build")
    ap.add_argument("--finish", type=Path, default=None,
                    help="skip training: recalibrate, validate and export these weights")
    ap.add_argument("--results", type=Path, default=None,
                    help="with --finish: the results.csv of the run that made them")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from these weights: a checkpoint of this recipe, or an ONNX "
                         "file it exported (models/cueref-detector.onnx)")
    args = ap.parse_args(argv)

    if not (args.data / "images" / "train").is_dir():
        print(f"error: {args.data} has no images/train; make it with `cueref dataset`",
              file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    build = args.build.resolve()
    _offline(build)
    from ultralytics import YOLO

    data = _data_yaml(args.data, build)
    run = build / "run"
    t0 = time.time()
    if args.finish:
        run = args.finish.parent
    elif args.resume and (run / "weights" / "last.pt").exists():
        YOLO(str(run / "weights" / "last.pt")).train(resume=True, trainer=_trainer_class())
    else:
        if args.init and args.init.suffix == ".onnx":
            train_images = sorted((args.data / "images" / "train").glob("*.jpg"))
            args.init = weights_from_onnx(args.init, train_images, build / "init_from_onnx.pt")
            print(f"starting from the weights of {args.init}", flush=True)
        YOLO(str(args.init or MODEL_YAML)).train(
            trainer=_trainer_class(), data=str(data), epochs=args.epochs, time=args.hours,
            imgsz=640, batch=args.batch, nbs=args.batch, warmup_epochs=0, device=args.device,
            workers=args.workers, optimizer="AdamW", lr0=args.lr, lrf=0.05, cos_lr=True,
            weight_decay=5e-4, mosaic=0.0, close_mosaic=0, mixup=0.0, scale=0.1,
            translate=0.05, degrees=0.0, fliplr=0.5, flipud=0.5, hsv_h=0.005, hsv_s=0.3,
            hsv_v=0.3, amp=False, plots=False,
            # ultralytics drops the weights of a loaded .pt unless pretrained names them
            pretrained=str(args.init) if args.init else False,
            cache=False if args.cache == "none" else args.cache, fraction=args.fraction,
            project=str(build), name="run", exist_ok=True, seed=args.seed,
            deterministic=False, patience=10_000, verbose=True,
        )
    train_s = time.time() - t0
    best = args.finish or run / "weights" / "best.pt"
    if not best.exists():
        best = run / "weights" / "last.pt"
    out_dir = args.export.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    images = sorted((args.data / "images" / "train").glob("*.jpg"))
    recal = recalibrate_batchnorm(best, images, build / "best_bn.pt",
                                  device=args.device)
    scores = {
        "best": _validate(best, data, device=args.device, batch=args.batch),
        "best_bn": _validate(recal, data, device=args.device, batch=args.batch),
    }
    chosen = "best_bn" if scores["best_bn"]["map50_95"] >= scores["best"]["map50_95"] else "best"
    weights = recal if chosen == "best_bn" else best
    onnx_file = Path(YOLO(str(weights)).export(format="onnx", imgsz=(320, 640), dynamic=True,
                                               simplify=False, device="cpu"))
    shutil.copyfile(onnx_file, args.export)
    int8 = quantize_int8(args.export, args.export.with_suffix(".int8.onnx"), images)
    results = read_results(args.results or run / "results.csv")
    if args.finish and results:
        train_s = results["time"][-1]
    manifest = json.loads((args.data / "manifest.json").read_text())
    metrics = {
        "onnx": args.export.name,
        "sha256": sha256(args.export),
        "bytes": args.export.stat().st_size,
        "int8": {"onnx": int8.name, "sha256": sha256(int8), "bytes": int8.stat().st_size},
        "weights": chosen,
        "validation": scores[chosen],
        "validation_other": {k: {"map50": v["map50"], "map50_95": v["map50_95"]}
                             for k, v in scores.items() if k != chosen},
        "epochs_completed": len(results.get("epoch", [])),
        "train_seconds": round(train_s, 1),
        "device": args.device,
        "batch": args.batch,
        "seed": args.seed,
        "dataset": manifest,
        "last_epoch": {k: v[-1] for k, v in results.items()} if results else {},
    }
    out = args.export.with_name("train-metrics.json")
    out.write_text(json.dumps(metrics, indent=1))
    print(json.dumps({k: metrics[k] for k in ("sha256", "weights", "epochs_completed")}))
    print(json.dumps(scores[chosen], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
