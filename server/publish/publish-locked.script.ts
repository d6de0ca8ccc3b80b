/**
 * The protected page's only script. It derives the key from the password with PBKDF2 (the salt
 * and the iteration count are in the page), opens the sealed photo list, then fetches and opens
 * each file (AES-GCM, `BDK1` + IV + ciphertext and tag) as it is shown, all in the browser's Web
 * Crypto: no server ever sees the password. Browsers give `crypto.subtle` to secure contexts only
 * (https, or http://localhost): elsewhere the page says so. Plain ES2017, allowed by its hash.
 */
export const LOCKED_SCRIPT = `(function(){
var cfg=JSON.parse(document.getElementById('lock').textContent),T=JSON.parse(document.getElementById('texts').textContent);
var form=document.getElementById('unlock'),pw=document.getElementById('pw'),err=document.getElementById('err'),go=document.getElementById('go');
var gal=document.getElementById('gallery'),grid=document.getElementById('grid');
var box=document.getElementById('lb'),stage=document.getElementById('lb-stage'),dl=document.getElementById('lb-dl'),pos=document.getElementById('lb-pos');
var key=null,photos=[],at=0,x0=null,shown=null;
function b64(s){var b=atob(s),a=new Uint8Array(b.length);for(var i=0;i<b.length;i++)a[i]=b.charCodeAt(i);return a;}
if(!window.crypto||!crypto.subtle||!window.TextEncoder){err.textContent=T.insecure;go.disabled=true;pw.disabled=true;return;}
function open(buf){var u=new Uint8Array(buf);
if(u.length<32||u[0]!==66||u[1]!==68||u[2]!==75||u[3]!==49)return Promise.reject(new Error('sealed'));
return crypto.subtle.decrypt({name:'AES-GCM',iv:u.subarray(4,16)},key,u.subarray(16));}
function fetchOpen(name,type){return fetch(name).then(function(r){if(!r.ok)throw new Error('http '+r.status);return r.arrayBuffer();}).then(open).then(function(p){return URL.createObjectURL(new Blob([p],{type:type}));});}
function save(name,type,as,btn){if(btn){btn.setAttribute('aria-busy','true');btn.classList.add('busy');}
return fetchOpen(name,type).then(function(url){var a=document.createElement('a');a.href=url;a.download=as;document.body.appendChild(a);a.click();a.remove();setTimeout(function(){URL.revokeObjectURL(url);},60000);},function(){alert(T.failed);}).then(function(){if(btn){btn.removeAttribute('aria-busy');btn.classList.remove('busy');}});}
form.addEventListener('submit',function(e){e.preventDefault();err.textContent='';go.disabled=true;go.textContent=T.opening;
crypto.subtle.importKey('raw',new TextEncoder().encode(pw.value),'PBKDF2',false,['deriveKey']).then(function(base){
return crypto.subtle.deriveKey({name:'PBKDF2',salt:b64(cfg.salt),iterations:cfg.iterations,hash:'SHA-256'},base,{name:'AES-GCM',length:256},false,['decrypt']);
}).then(function(k){key=k;return open(b64(cfg.sealed).buffer);}).then(function(plain){draw(JSON.parse(new TextDecoder().decode(plain)));},function(){
key=null;go.disabled=false;go.textContent=T.open;err.textContent=T.wrong;pw.select();});});
function thumbOf(img,p){if(img.dataset.done)return;img.dataset.done='1';fetchOpen(p.t,'image/webp').then(function(u){img.src=u;},function(){img.alt=T.failed;});}
function draw(d){photos=d.photos;form.parentNode.removeChild(form);gal.hidden=false;document.title=d.title;
document.getElementById('g-title').textContent=d.title;document.getElementById('g-meta').textContent=d.meta;
if(d.welcome){var w=document.getElementById('g-welcome');w.textContent=d.welcome;w.hidden=false;}
if(d.expires){var x=document.getElementById('g-expires');x.textContent=d.expires;x.hidden=false;}
if(d.zip){var z=document.getElementById('g-zip');z.hidden=false;z.querySelector('span').textContent=d.zip.label;
z.addEventListener('click',function(e){e.preventDefault();save(d.zip.name,'application/zip',d.zip.as,z);});}
if(d.h)grid.style.setProperty('--h',d.h+'px');
if(photos.length===0){var em=document.createElement('p');em.className='empty';em.textContent=T.empty;em.setAttribute('data-testid','gallery-empty');grid.parentNode.replaceChild(em,grid);return;}
var io=window.IntersectionObserver?new IntersectionObserver(function(es){es.forEach(function(en){if(en.isIntersecting){io.unobserve(en.target);thumbOf(en.target,photos[+en.target.dataset.i]);}});},{rootMargin:'400px'}):null;
photos.forEach(function(p,i){var li=document.createElement('li'),a=document.createElement('a'),img=document.createElement('img');
var label=p.k==='video'?T.video:p.k==='animation'?T.animation:T.photo;
var r=p.r||1;if(p.r)li.style.setProperty('--r',String(r));
a.className='t';a.href='#'+p.id;a.setAttribute('data-testid','photo-tile');img.alt=label+' '+(i+1);img.width=r>=1?480:Math.round(480*r);img.height=r>=1?Math.round(480/r):480;img.dataset.i=i;a.appendChild(img);
if(p.k==='video'||p.k==='animation'){var b=document.createElement('span');b.className='badge';b.textContent=label;a.appendChild(b);}
a.addEventListener('click',function(e){e.preventDefault();show(i);if(!box.open)box.showModal();});
li.appendChild(a);grid.appendChild(li);if(io&&i>=12)io.observe(img);else thumbOf(img,p);});
var deep=location.hash.slice(1);for(var i=0;i<photos.length;i++)if(photos[i].id===deep){show(i);box.showModal();break;}}
function show(i){at=(i+photos.length)%photos.length;var p=photos[at];stage.textContent='';if(shown){URL.revokeObjectURL(shown);shown=null;}
var el=document.createElement(p.k==='video'?'video':'img');if(p.k==='video'){el.controls=true;el.playsInline=true;el.setAttribute('playsinline','');}else el.alt=T.photo;
el.className='lb-media';el.setAttribute('data-testid','lightbox-media');stage.appendChild(el);
fetchOpen(p.p||p.m,p.p?'image/webp':p.x).then(function(u){if(stage.firstChild!==el){URL.revokeObjectURL(u);return;}shown=u;el.src=u;},function(){el.alt=T.failed;});
pos.textContent=(at+1)+' / '+photos.length;}
dl.addEventListener('click',function(e){e.preventDefault();var p=photos[at];save(p.m,p.x,p.n,dl);});
document.getElementById('lb-prev').addEventListener('click',function(){show(at-1);});
document.getElementById('lb-next').addEventListener('click',function(){show(at+1);});
document.getElementById('lb-close').addEventListener('click',function(){box.close();});
box.addEventListener('close',function(){stage.textContent='';if(shown){URL.revokeObjectURL(shown);shown=null;}});
box.addEventListener('keydown',function(e){if(e.key==='ArrowLeft')show(at-1);if(e.key==='ArrowRight')show(at+1);});
stage.addEventListener('touchstart',function(e){x0=e.touches[0].clientX;},{passive:true});
stage.addEventListener('touchend',function(e){if(x0===null)return;var d=e.changedTouches[0].clientX-x0;x0=null;if(Math.abs(d)>50)show(d<0?at+1:at-1);});
})();`;
