"""ConfigurableResources: thin adapters over OpenReview, the browser, storage, Ray and the LLM."""
from resources.browser import BrowserResource
from resources.llm import LLMResource
from resources.openreview import OpenReviewResource
from resources.ray import RayResource
from resources.store import StorageResource

__all__ = ["BrowserResource", "LLMResource", "OpenReviewResource", "RayResource", "StorageResource"]
