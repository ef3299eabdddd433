"""Vision: frames in, detections (pixels) out. The detector arrives with the detector issue."""
