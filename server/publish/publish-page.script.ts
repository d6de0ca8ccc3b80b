/**
 * The published page's only script: the lightbox. It is plain ES2017 so that any phone runs it,
 * it reads everything from the tiles, and the page's CSP allows exactly this text (by its hash).
 * Without it every tile still opens its file.
 */
export const LIGHTBOX_SCRIPT = `(function(){
var tiles=[].slice.call(document.querySelectorAll('a.t'));
var box=document.getElementById('lb'),stage=document.getElementById('lb-stage'),dl=document.getElementById('lb-dl'),pos=document.getElementById('lb-pos');
if(!box||!box.showModal)return;
var at=0,x0=null;
function show(i){
at=(i+tiles.length)%tiles.length;var t=tiles[at],src=t.getAttribute('href'),thumb=t.querySelector('img').getAttribute('src');
stage.textContent='';var el;
if(t.dataset.k==='video'){el=document.createElement('video');el.controls=true;el.playsInline=true;el.setAttribute('playsinline','');el.poster=thumb;el.preload='metadata';}
else{el=document.createElement('img');el.alt=t.querySelector('img').alt;el.style.backgroundImage='url("'+thumb+'")';}
el.src=t.dataset.p||src;el.className='lb-media';el.setAttribute('data-testid','lightbox-media');stage.appendChild(el);
dl.href=src;dl.setAttribute('download',t.dataset.name||'');pos.textContent=(at+1)+' / '+tiles.length;
}
tiles.forEach(function(t,i){t.addEventListener('click',function(e){e.preventDefault();show(i);if(!box.open)box.showModal();});});
document.getElementById('lb-prev').addEventListener('click',function(){show(at-1);});
document.getElementById('lb-next').addEventListener('click',function(){show(at+1);});
document.getElementById('lb-close').addEventListener('click',function(){box.close();});
box.addEventListener('close',function(){stage.textContent='';});
box.addEventListener('keydown',function(e){if(e.key==='ArrowLeft')show(at-1);if(e.key==='ArrowRight')show(at+1);});
stage.addEventListener('touchstart',function(e){x0=e.touches[0].clientX;},{passive:true});
stage.addEventListener('touchend',function(e){if(x0===null)return;var d=e.changedTouches[0].clientX-x0;x0=null;if(Math.abs(d)>50)show(d<0?at+1:at-1);});
})();`;
